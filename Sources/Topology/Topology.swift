import City
import Demand
import Foundation
import RideDispatch

/// A city run described in a YAML file (`Topologies/*.yaml`, docs/TOPOLOGIES.md): the streets,
/// the clock, dispatch's settings, the drivers and riders with their processes, demand,
/// feature flags and endpoints. Paths inside are relative to the file.
public struct Topology: Sendable, Equatable {
    public var name: String
    /// The file it was read from.
    public var file: String
    public var city: CitySource
    /// Simulated seconds per wall second.
    public var speed: Double
    /// Seconds of simulated time during which rides are requested.
    public var duration: Double
    /// Time of day at the start, in seconds after midnight.
    public var startSecondOfDay: Double
    public var seed: UInt64
    public var dispatch: DispatchConfiguration
    /// `dispatch: { shards: N }`: how many dispatch processes split the city's map between them,
    /// each owning one region (docs/ARCHITECTURE.md, "Sharded dispatch"); 1 by default.
    public var dispatchShards = 1
    public var drivers: DriverPlan
    public var riders: RiderPlan
    /// Optional features by name, for the apps: on for which share of them, failing how often.
    public var features: [String: FeatureSetting]
    /// `monitor: { web: { port: N } }`: the port the web monitor serves the run's page on.
    public var webPort: Int?
    public var endpoints: Endpoints
    /// How simulated time moves: with the wall clock at ``speed``, or as fast as every process is
    /// done with it (virtual time, docs/ARCHITECTURE.md).
    public var clockMode: ClockMode = .wall
    /// The simulated delay of every message between processes, in milliseconds: in virtual time,
    /// the lookahead (the longest window).
    public var latencyMs: Int64 = 500
    /// `dispatch: { border: { … } }`: how the shards match across their borders.
    public var border = BorderPlan()
    /// Travel times calibrated on real trips (`city: {calibration: FILE}`), or `nil` for the
    /// roads' posted speeds.
    public var calibration: Calibration?
    /// The kind of day simulated (`clock: {day: weekday|weekend}`): a calibration's bands differ.
    public var day: DayKind = .weekday
    /// Whether the run's processes talk over CURVE (keys per process, docs/ARCHITECTURE.md):
    /// `security: {curve: on|off}`; on by default over tcp, off over ipc.
    public var curve: Bool?
    /// The machines of a city across hosts (`hosts:`), the coordinator's first: the bus, dispatch,
    /// the monitor and the recorder run there, and every other host's processes join it. Empty:
    /// the whole run on one machine.
    public var hosts: [Host] {
        get { endpoints.hosts }
        set { endpoints.hosts = newValue }
    }

    /// Whether CURVE is on: as set, or by default over tcp only.
    public var usesCurve: Bool { curve ?? (endpoints.transport == .tcp) }

    /// Where the coordinator's keeper of virtual time serves its window link for run `run`: a
    /// Unix packet link (`unix://PATH`) over ipc without CURVE, else the libzmq endpoint of
    /// ``Endpoints/windows(run:temporaryDirectory:shards:)``.
    public func windowLink(run: String, temporaryDirectory: String) -> String {
        overPackets(endpoints.windows(run: run, temporaryDirectory: temporaryDirectory, shards: dispatchShards))
    }

    /// Where a dispatch whose sessions endpoint is `sessions` also serves the run's own hosts
    /// over a Unix packet link (`unix://PATH.local`), beside that endpoint: over ipc without
    /// CURVE; nil otherwise (PERFORMANCE.md, session 37).
    public func localSessions(of sessions: String) -> String? {
        let local = overPackets(sessions)
        return local == sessions ? nil : local + ".local"
    }

    /// Over ipc without CURVE (the default on one machine), the window link is a Unix packet
    /// link (`unix://PATH`): its messages go from one process's I/O loop to the other's without
    /// libzmq's I/O threads (PERFORMANCE.md, session 36). It is internal to a run, and so are
    /// the packet links of dispatch's sessions for the run's own hosts (``localSessions(of:)``);
    /// dispatch's sessions endpoint and the bus, which other tools and other languages' clients
    /// use, stay libzmq, and so does everything over tcp or with CURVE.
    private func overPackets(_ endpoint: String) -> String {
        guard endpoints.transport == .ipc, !usesCurve, endpoint.hasPrefix("ipc://") else { return endpoint }
        return "unix://" + endpoint.dropFirst("ipc://".count)
    }

    /// A calibration file and what it holds.
    public struct Calibration: Sendable, Equatable {
        /// The absolute path of the file.
        public var path: String
        public var file: CalibrationFile

        public init(path: String, file: CalibrationFile) {
            self.path = path
            self.file = file
        }
    }

    /// The router of each moment of the run on `graph` (this topology's roads): with a
    /// calibration, a hierarchy per band of the day the run reaches, all built now; without one, a
    /// hierarchy of the posted speeds. Hierarchies are read from `store` when it has them.
    public func travelTimes(on graph: RoadGraph, store: HierarchyStore? = nil) -> TravelTimeSchedule {
        .forRun(
            graph: graph, model: calibration?.file.model, startSecondOfDay: startSecondOfDay, day: day, duration: duration,
            store: store)
    }

    /// A machine of a city across hosts: its name in the topology, and the address the other
    /// hosts reach it at.
    public struct Host: Sendable, Equatable {
        public var name: String
        public var address: String

        public init(name: String, address: String) {
            self.name = name
            self.address = address
        }
    }

    /// The host of driver process `index`: the driver plan's hosts in turn, or the coordinator's;
    /// nil for a run on one machine.
    public func hostOfDrivers(_ index: Int) -> Host? { host(in: drivers.hosts, index) }

    /// The host of rider process `index`: the rider plan's hosts in turn, or the coordinator's;
    /// nil for a run on one machine.
    public func hostOfRiders(_ index: Int) -> Host? { host(in: riders.hosts, index) }

    private func host(in names: [String], _ index: Int) -> Host? {
        guard let coordinator = hosts.first else { return nil }
        guard !names.isEmpty else { return coordinator }
        let name = names[index % names.count]
        return hosts.first { $0.name == name } ?? coordinator
    }

    /// How simulated time moves.
    public enum ClockMode: String, Sendable, Equatable {
        /// `speed` simulated seconds per wall second: to watch a city live.
        case wall
        /// As fast as the machine allows, the same run every time.
        case virtual
    }

    /// A topology built in code (the YAML reader builds one the same way); silent keys of a file
    /// get these defaults.
    public init(
        name: String, file: String = "", city: CitySource, speed: Double = 60, duration: Double = 3_600,
        startSecondOfDay: Double = 8 * 3_600, seed: UInt64 = 1, dispatch: DispatchConfiguration = DispatchConfiguration(),
        drivers: DriverPlan, riders: RiderPlan, features: [String: FeatureSetting] = [:], endpoints: Endpoints = Endpoints()
    ) {
        self.name = name
        self.file = file
        self.city = city
        self.speed = speed
        self.duration = duration
        self.startSecondOfDay = startSecondOfDay
        self.seed = seed
        self.dispatch = dispatch
        self.drivers = drivers
        self.riders = riders
        self.features = features
        self.endpoints = endpoints
    }

    /// Where the streets come from.
    public enum CitySource: Sendable, Equatable {
        /// An OpenStreetMap file (XML, gzip or PBF), as an absolute path.
        case openStreetMap(path: String)
        case grid(GridCity)
    }

    /// The driver processes and how their drivers behave.
    public struct DriverPlan: Sendable, Equatable {
        public var processes: Int
        public var perProcess: Int
        public var acceptance: ClosedRange<Double>
        public var responseSeconds: ClosedRange<Double>
        /// Simulated seconds between a moving car's location reports (`location_every_s`); nil
        /// (0 in a file): none. Dispatch follows cars by the legs it hands out, so the reports
        /// are the load a real fleet's pings put on dispatch, not what matching needs.
        public var locationEverySeconds: Double?
        /// The hosts the processes run on, in turn (`host:`); empty: the coordinator's.
        public var hosts: [String] = []
        public var total: Int { processes * perProcess }

        public init(
            processes: Int = 1, perProcess: Int = 100, acceptance: ClosedRange<Double> = 0.8...1,
            responseSeconds: ClosedRange<Double> = 2...12, locationEverySeconds: Double? = 15
        ) {
            self.processes = processes
            self.perProcess = perProcess
            self.acceptance = acceptance
            self.responseSeconds = responseSeconds
            self.locationEverySeconds = locationEverySeconds
        }
    }

    /// The rider processes, demand, and how riders behave.
    public struct RiderPlan: Sendable, Equatable {
        public var processes: Int
        public var demand: DemandSource
        public var patienceSeconds: ClosedRange<Double>
        public var poolShare: Double
        public var scheduledShare: Double
        /// The hosts the processes run on, in turn (`host:`); empty: the coordinator's.
        public var hosts: [String] = []

        public init(
            processes: Int = 1, demand: DemandSource, patienceSeconds: ClosedRange<Double> = 300...900,
            poolShare: Double = 0.15, scheduledShare: Double = 0.05
        ) {
            self.processes = processes
            self.demand = demand
            self.patienceSeconds = patienceSeconds
            self.poolShare = poolShare
            self.scheduledShare = scheduledShare
        }
    }

    /// Where rides come from.
    public enum DemandSource: Sendable, Equatable {
        case synthetic(peakPerHour: Double, profile: Profile, hotSpots: [HotSpot], evenlySpaced: Bool, minimumTripMetres: Double)
        /// Records replayed (absolute paths), folded into one day; pickups without dropoffs take
        /// destinations fitted on `destinations` (or on the records themselves).
        case replay(records: String, destinations: String?)
    }

    /// A time-of-day profile: flat, or fitted on a record file (absolute path).
    public enum Profile: Sendable, Equatable {
        case flat
        case fitted(records: String)
    }

    /// How processes reach each other.
    public struct Endpoints: Sendable, Equatable {
        public enum Transport: String, Sendable { case ipc, tcp }
        public var transport: Transport
        public var host: String
        /// For tcp: the first port; dispatch, bus and the rest follow.
        public var basePort: Int
        /// The machines of a city across hosts, the coordinator's first (``Topology/hosts``).
        public var hosts: [Host] = []

        public init(transport: Transport = .ipc, host: String = "127.0.0.1", basePort: Int = 5_550) {
            self.transport = transport
            self.host = host
            self.basePort = basePort
        }
    }
}

extension Topology.Endpoints {
    /// Where dispatch serves sessions and publishes events for the run named `run`: ipc paths in
    /// the temporary directory, or tcp ports from `basePort`.
    public func dispatch(run: String, temporaryDirectory: String) -> (sessions: String, bus: String) {
        switch transport {
        case .ipc:
            let base = "ipc://" + (temporaryDirectory as NSString).appendingPathComponent("ribcity-\(run)")
            return (base + "-dispatch", base + "-dispatch-bus")
        case .tcp:
            return ("tcp://\(host):\(basePort)", "tcp://\(host):\(basePort + 1)")
        }
    }

    /// Over tcp, the port dispatch shard `shard` serves sessions on: `basePort` for shard 0, the
    /// ports after the bus proxy's for the others (`basePort + 3 + shard`).
    public func sessionsPort(ofShard shard: Int) -> Int {
        shard == 0 ? basePort : basePort + 3 + shard
    }

    /// Over tcp, the bus proxy's ports: publishers in, subscribers out.
    public var busPorts: (publish: Int, subscribe: Int) { (basePort + 2, basePort + 3) }

    /// Over tcp, the window link's port for a dispatch in `shards` shards: after the last shard's.
    public func windowsPort(shards: Int) -> Int { basePort + 3 + max(1, shards) }

    /// Over tcp, the ports the coordinator's host serves the others, by name: every dispatch
    /// shard's sessions, the bus's two sides and, in virtual time, the window link.
    public func servedPorts(shards: Int, virtual: Bool) -> [(name: String, port: Int)] {
        let sessions = (0..<max(1, shards)).map { shard in
            (name: shard == 0 ? "sessions" : "sessions-\(shard)", port: sessionsPort(ofShard: shard))
        }
        let bus = [(name: "bus-in", port: busPorts.publish), (name: "bus-out", port: busPorts.subscribe)]
        return sessions + bus + (virtual ? [(name: "windows", port: windowsPort(shards: shards))] : [])
    }

    /// Where dispatch shard `shard` of `shards` serves sessions: the one dispatch's endpoint for
    /// shard 0 (and an unsharded run); after it, ipc paths named by shard, or the ports after the
    /// bus proxy's (`basePort + 3 + shard`).
    public func sessions(ofShard shard: Int, run: String, temporaryDirectory: String) -> String {
        let first = dispatch(run: run, temporaryDirectory: temporaryDirectory).sessions
        guard shard > 0 else { return first }
        switch transport {
        case .ipc: return first + "-\(shard)"
        case .tcp: return "tcp://\(host):\(sessionsPort(ofShard: shard))"
        }
    }

    /// Every dispatch shard's sessions endpoint, in shard order.
    public func shardSessions(_ shards: Int, run: String, temporaryDirectory: String) -> [String] {
        (0..<max(1, shards)).map { sessions(ofShard: $0, run: run, temporaryDirectory: temporaryDirectory) }
    }

    /// What a server binds to serve `endpoint`: the endpoint itself on one machine; across hosts,
    /// its port on every interface of the coordinator's host (the address the others use may be a
    /// name that is not one of its interfaces', such as a Kubernetes service).
    public func listening(on endpoint: String) -> String {
        guard !hosts.isEmpty, endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":") else { return endpoint }
        return "tcp://*" + endpoint[colon...]
    }

    /// Where the coordinator's keeper of virtual time serves its window link (a ROUTER) for run
    /// `run` of a dispatch in `shards` shards: an ipc path, or the port after the last shard's.
    public func windows(run: String, temporaryDirectory: String, shards: Int) -> String {
        switch transport {
        case .ipc:
            "ipc://" + (temporaryDirectory as NSString).appendingPathComponent("ribcity-\(run)") + "-windows"
        case .tcp:
            "tcp://\(host):\(windowsPort(shards: shards))"
        }
    }

    /// Where the bus proxy takes publishers (XSUB) and serves subscribers (XPUB) for run `run`.
    public func bus(run: String, temporaryDirectory: String) -> (publish: String, subscribe: String) {
        switch transport {
        case .ipc:
            let base = "ipc://" + (temporaryDirectory as NSString).appendingPathComponent("ribcity-\(run)")
            return (base + "-bus-in", base + "-bus-out")
        case .tcp:
            return ("tcp://\(host):\(busPorts.publish)", "tcp://\(host):\(busPorts.subscribe)")
        }
    }
}

extension Topology.CitySource {
    /// The road graph: the grid built, or the OpenStreetMap file imported (its largest strongly
    /// connected drivable part), or read from `store` where this build imported the same file
    /// before (``RoadGraphStore``; nil: imported every time). Import errors name the file.
    public func load(store: RoadGraphStore? = .standard) throws -> RoadGraph {
        switch self {
        case .grid(let grid): return grid.build()
        case .openStreetMap(let path):
            guard let store else { return try RoadNetworkImport.graph(of: OSMFile.contents(of: path), path: path) }
            return try store.graph(of: path, importer: CityCache.build, importing: RoadNetworkImport.graph).graph
        }
    }
}

extension Topology {
    /// The same run with `factor` times the demand (the overload search raises it step by step).
    /// Synthetic demand scales its peak rate; replayed records are what they are, so a replay
    /// cannot be scaled.
    public func scalingDemand(by factor: Double) throws(TopologyError) -> Topology {
        guard factor > 0, factor.isFinite else {
            throw TopologyError(
                file: file, key: "riders.demand", line: nil, reason: "a demand scale must be a positive number, not \(factor)")
        }
        guard factor != 1 else { return self }
        guard case .synthetic(let peak, let profile, let spots, let even, let minimum) = riders.demand else {
            throw TopologyError(
                file: file, key: "riders.demand", line: nil, reason: "replayed records cannot be scaled; use synthetic demand")
        }
        var scaled = self
        scaled.riders.demand = .synthetic(
            peakPerHour: peak * factor, profile: profile, hotSpots: spots, evenlySpaced: even, minimumTripMetres: minimum)
        return scaled
    }
}
