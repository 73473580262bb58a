// swift-tools-version: 6.1
import PackageDescription

/// Swift 6 language mode with complete strict concurrency for every target.
///
/// Release builds leave out the run-time checks of exclusive access (`swift_beginAccess` on
/// every access to a class's stored property, a global or a captured variable: 4–5 % of the
/// processes' I/O threads, and a virtual metro run 10 % faster without them — docs/PERFORMANCE.md,
/// "Exclusivity checks"). Debug builds, which every test and the sanitizers run, keep them, so
/// an overlapping access still traps there.
///
/// Release builds also offer each module's code to the modules that use it
/// (`-cross-module-optimization`): generic code is specialized for the user's types and small
/// functions are inlined across modules — unspecialized, each call looks up the generic types'
/// metadata at run time and copies values through their witness tables (docs/PERFORMANCE.md,
/// "Runtime look-ups" for the RIBs framework and virtual time, where it began, and "Every module
/// optimized across modules" for the rest: metro in virtual time 6–9 % faster).
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release)),
]

/// The processes' memory allocator: mimalloc (Debian's libmimalloc-dev) in place of glibc's
/// malloc. A city allocates small short-lived objects by the million (a frame per message, apps'
/// RIBs), many freed on another thread: with mimalloc the transport is faster and the processes
/// smaller (docs/PERFORMANCE.md, "The allocator"). Linked into the executables only; a
/// sanitizer's own allocator, linked into the executable itself, still comes first.
let fastAllocator: [LinkerSetting] = [.linkedLibrary("mimalloc")]

let package = Package(
    name: "ribcity",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ribcity", targets: ["ribcity"]),
        .executable(name: "ribcity-recorder", targets: ["ribcity-recorder"]),
        .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
        .library(name: "Wire", targets: ["Wire"]),
        .library(name: "SimulatedTime", targets: ["SimulatedTime"]),
        .library(name: "RIBs", targets: ["RIBs"]),
        .library(name: "Contacts", targets: ["Contacts"]),
        .library(name: "City", targets: ["City"]),
        .library(name: "RideDispatch", targets: ["RideDispatch"]),
        .library(name: "Demand", targets: ["Demand"]),
        .library(name: "Topology", targets: ["Topology"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // Debian's libzmq3-dev; our own modulemap links "zmq" (no pkg-config: its flags are refused).
        .systemLibrary(
            name: "CZeroMQ",
            providers: [.apt(["libzmq3-dev"])]
        ),
        // Debian's zlib1g-dev, for gzip and the zlib blobs of OSM PBF files.
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Small C helpers for processes: line-buffered stdout, thread names.
        .target(name: "CRibcity"),
        // A seeded random number generator: reproducible simulations, tests and faults.
        .target(
            name: "Randomness",
            swiftSettings: strict
        ),
        // Faults a sender injects into what it sends (stress mode): drops, duplicates, delays.
        .target(
            name: "Faults",
            dependencies: ["Randomness"],
            swiftSettings: strict
        ),
        // What every role's process shares: readiness on the bus, interrupts, its standard output.
        .target(
            name: "ProcessSupport",
            dependencies: ["CRibcity", "City", "Wire", "ZeroMQ"],
            swiftSettings: strict
        ),
        .target(
            name: "ZeroMQ",
            dependencies: [
                "CRibcity",
                "CZeroMQ",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // Simulated time and durations, with the one rule by which they cross the wire.
        .target(
            name: "SimulatedTime",
            swiftSettings: strict
        ),
        // Virtual time: the keeper's windows and a participant's ordered inbox (no sockets, no clocks).
        .target(
            name: "VirtualTime",
            dependencies: ["SimulatedTime"],
            swiftSettings: strict
        ),
        .target(
            name: "Wire",
            dependencies: [
                "City",
                "SimulatedTime",
                "VirtualTime",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Proto"],
            swiftSettings: strict
        ),
        // Ohana-style contacts: providers, post-processors, selection filters, a data source with
        // streams. Knows nothing of ZeroMQ, the wire or the city.
        .target(
            name: "Contacts",
            swiftSettings: strict
        ),
        // The app architecture: knows nothing of ZeroMQ, the wire protocol or the city.
        .target(
            name: "RIBs",
            swiftSettings: strict
        ),
        // Streets, routing and positions: no I/O of its own, nothing of sockets.
        .target(
            name: "City",
            dependencies: [
                "CZlib",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Proto"],
            swiftSettings: strict
        ),
        // Travel times fitted on real trips, and how close simulated trips come to them (no I/O).
        .target(
            name: "Calibration",
            dependencies: ["City", "Demand"],
            swiftSettings: strict
        ),
        // The dispatch engine ("Dispatch" is taken by libdispatch): matching, offers, pricing, KPIs;
        // no I/O, knows the city, not sockets.
        .target(
            name: "RideDispatch",
            dependencies: [
                "City",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // Who wants rides when and where: synthetic arrivals and replays of real trip records.
        .target(
            name: "Demand",
            dependencies: ["City", "Randomness", .product(name: "CSV", package: "CSV.swift")],
            swiftSettings: strict
        ),
        // City runs described in YAML (Topologies/), validated with file, key, line and reason.
        .target(
            name: "Topology",
            dependencies: ["City", "Demand", "RideDispatch", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict
        ),
        // The dispatch process: the engine behind the wire protocol (sessions, idempotent requests,
        // offers, legs, trip updates, bus events, snapshots).
        .target(
            name: "DispatchService",
            dependencies: [
                "City", "Faults", "RideDispatch", "SimulatedTime", "Wire", "ZeroMQ",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // The monitor: what the event bus says, summarised; gaps reported, late joins via snapshots.
        .target(
            name: "Monitor",
            dependencies: [
                "RideDispatch", "SimulatedTime", "Wire", .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // A session with dispatch for rider and driver hosts: replies matched, Lazy Pirate retries.
        .target(
            name: "SessionClient",
            dependencies: [
                "Faults", "SimulatedTime", "Wire", "ZeroMQ", .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // What rider and driver apps share: their line to dispatch (an outbox drained by the host)
        // and the protocol a host drives them by. Knows the wire messages, not sockets.
        .target(
            name: "AppRuntime",
            dependencies: ["RIBs", "Wire"],
            swiftSettings: strict
        ),
        // The driver app: a RIB tree per driver, moving along the legs dispatch hands out.
        .target(
            name: "DriverApp",
            dependencies: ["AppRuntime", "RIBs", "City", "Randomness", "Wire"],
            swiftSettings: strict
        ),
        // The rider app: a RIB tree per rider, from sign-in through request, trip and rating.
        .target(
            name: "RiderApp",
            dependencies: ["AppRuntime", "Contacts", "RIBs", "City", "Randomness", "SimulatedTime", "Wire"],
            swiftSettings: strict
        ),
        // A rider or driver process: many apps on their own actors over one session with dispatch.
        .target(
            name: "AppHost",
            dependencies: [
                "AppRuntime", "DriverApp", "RiderApp", "City", "Scenarios", "RIBs", "SessionClient", "SimulatedTime", "Wire",
                "ZeroMQ", .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // `ribcity launch`: hosts the bus, starts a topology's processes in order, supervises and
        // restarts them, stops them in reverse, and writes the run's directory and summary.
        .target(
            name: "Coordinator",
            dependencies: [
                "ProcessSupport", "Randomness", "SimulatedTime", "Topology", "Monitor", "VirtualTime", "Wire", "ZeroMQ",
            ],
            swiftSettings: strict
        ),
        // Cities made ready to run: a topology's streets, drivers and rides (or SUMO's reference),
        // and how they are shared between processes. Used by the runner and by the hosts.
        .target(
            name: "Scenarios",
            dependencies: ["City", "Demand", "Randomness", "RideDispatch", "Topology"],
            swiftSettings: strict
        ),
        // The in-process discrete-event runner: simulated drivers and riders around the engine.
        .target(
            name: "Simulation",
            dependencies: [
                "City",
                "Randomness",
                "RideDispatch",
                "Scenarios",
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "RIBsBench",
            dependencies: ["RIBs"],
            swiftSettings: strict
        ),
        .target(
            name: "TransportBench",
            dependencies: [
                "CZeroMQ",
                "ProcessSupport",
                "ZeroMQ",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ribcity",
            dependencies: [
                "ZeroMQ",
                "Wire",
                "City",
                "Faults",
                "ProcessSupport",
                "Randomness",
                "RideDispatch",
                "Calibration",
                "Demand",
                "Topology",
                "Scenarios",
                "Simulation",
                "DispatchService",
                "Monitor",
                "AppHost",
                "Coordinator",
                "SessionClient",
                "TransportBench",
                "RIBsBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            linkerSettings: fastAllocator
        ),
        // A run's bus into SQLite. GRDB's build is slow: only this module and `ribcity-recorder`
        // use it, never the core modules or `ribcity`, so their builds stay fast.
        .target(
            name: "RunRecording",
            dependencies: ["Wire", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ribcity-recorder",
            dependencies: [
                "RunRecording",
                "Monitor",
                "ProcessSupport",
                "Wire",
                "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            linkerSettings: fastAllocator
        ),
        // The web monitor: a page with a live map and charts, and Prometheus metrics. Hummingbird
        // and NIO build slowly: only this module, `ribcity-web` and their tests use them, never
        // the core modules or `ribcity`.
        .target(
            name: "WebMonitor",
            dependencies: [
                "City", "Monitor", "RideDispatch", "SimulatedTime", "Wire",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ribcity-web",
            dependencies: [
                "WebMonitor", "ProcessSupport", "Topology", "Wire", "ZeroMQ",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            linkerSettings: fastAllocator
        ),
        // Event latency from the bus to web pages, through a real `ribcity-web` (docs/PERFORMANCE.md).
        .executableTarget(
            name: "ribcity-web-bench",
            dependencies: [
                "City", "Randomness", "Topology", "Wire", "ZeroMQ",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "TestSupport",
            dependencies: ["City", "Randomness"],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "VirtualTimeTests",
            dependencies: ["VirtualTime", "SimulatedTime", "Randomness"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ZeroMQTests",
            dependencies: ["ZeroMQ", "Wire", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CalibrationTests",
            dependencies: ["Calibration", "City", "Demand", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CityTests",
            dependencies: ["City", "TestSupport", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RideDispatchTests",
            dependencies: ["RideDispatch", "Scenarios", "Simulation", "City", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DemandTests",
            dependencies: ["Demand", "City", "Scenarios", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TopologyTests",
            dependencies: ["Topology", "Scenarios", "City", "RideDispatch"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DispatchServiceTests",
            dependencies: ["DispatchService", "RideDispatch", "City", "Wire", "ZeroMQ", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MonitorTests",
            dependencies: ["Monitor", "Wire"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SessionClientTests",
            dependencies: ["SessionClient", "DispatchService", "RideDispatch", "City", "Wire", "ZeroMQ", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "AppRuntime", "DriverApp", "RiderApp", "AppHost", "City", "Scenarios", "Wire", "RIBs", "TestSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: strict
        ),
        // Whole cities as real processes (ribcity launch): slow-ish, so in a suite of their own.
        .testTarget(
            name: "CityProcessTests",
            dependencies: ["TestSupport", "ZeroMQ"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RunRecordingTests",
            dependencies: ["RunRecording", "Wire"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoordinatorTests",
            dependencies: [
                "Coordinator", "Monitor", "Randomness", "SimulatedTime", "TestSupport", "Topology", "VirtualTime", "Wire",
                "ZeroMQ",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ContactsTests",
            dependencies: ["Contacts"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebMonitorTests",
            dependencies: [
                "WebMonitor", "City", "Randomness", "Wire",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RIBsTests",
            dependencies: ["RIBs"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FaultsTests",
            dependencies: ["Faults", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WireTests",
            dependencies: ["Wire", "TestSupport", "VirtualTime", "SimulatedTime"],
            swiftSettings: strict
        ),
    ]
)
