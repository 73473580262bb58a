import ArgumentParser
import Foundation
import RIBsBench
import TransportBench

/// `ribcity bench …`: benchmarks, each with its baseline measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks, each against a baseline measured in the same run.",
        discussion: """
            Examples:
              ribcity bench transport --security both --markdown
              ribcity bench ribs
              ribcity bench city Topologies/data/manhattan-south-roads.osm.pbf
            """,
        subcommands: [
            TransportBenchCommand.self, RIBsBenchCommand.self, AppsBenchCommand.self, CityBenchCommand.self,
            DispatchBenchCommand.self, RecoveryBenchCommand.self,
        ]
    )
}

struct RIBsBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ribs",
        abstract: "RIB trees: build-to-release cycles per second, and memory per live tree.",
        discussion: """
            Examples:
              ribcity bench ribs
              ribcity bench ribs --cycles 20000 --live-trees 100000
            """
    )

    @Option(help: "Build-to-release cycles to time.")
    var cycles = 200_000

    @Option(help: "Live trees to hold for the memory measurement.")
    var liveTrees = 100_000

    func run() {
        print(RIBsBenchmark(cycles: cycles, liveTrees: liveTrees).run().report)
    }
}

struct TransportBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transport",
        abstract: "ribcity's ZeroMQ transport versus raw libzmq: one-way msgs/s and round-trip latency.",
        discussion: """
            Examples:
              ribcity bench transport --repeats 5 --markdown
              ribcity bench transport --security both --link tcp --size 64
            """
    )

    @Option(help: "Messages per one-way case.")
    var messages = 1_000_000

    @Option(help: "Recorded round trips per latency case (a tenth more warm up first).")
    var roundTrips = 20_000

    @Option(
        help:
            "Repetitions of each case (one-way: rounds of every implementation in turn); the best one-way rate and the median latencies are kept."
    )
    var repeats = 3

    @Flag(help: "Print the results as a Markdown table.")
    var markdown = false

    @Option(help: "Only this link (ipc or tcp).")
    var link: TransportBenchmark.Link?

    @Option(help: "Only this message size in bytes.")
    var size: Int?

    @Flag(help: "Skip the round-trip cases.")
    var noRoundTrip = false

    @Option(
        name: .customLong("implementation"),
        help: "Only this implementation (batched, per-message or on-io-thread; repeatable); raw always runs, as the baseline.")
    var implementations: [TransportBenchmark.Implementation] = []

    private func measures(_ implementation: TransportBenchmark.Implementation) -> Bool {
        implementation == .raw || implementations.isEmpty || implementations.contains(implementation)
    }

    @Option(help: "plain, curve (every case over CURVE), or both (each case both ways, CURVE against plain).")
    var security: SecurityChoice = .plain

    enum SecurityChoice: String, ExpressibleByArgument {
        case plain, curve, both
        var cases: [BenchSecurity] { self == .both ? BenchSecurity.allCases : [self == .curve ? .curve : .plain] }
    }

    func run() async throws {
        let bench = TransportBenchmark(
            messages: messages, roundTrips: roundTrips, sizes: size.map { [$0] } ?? [64, 256],
            links: link.map { [$0] } ?? TransportBenchmark.Link.allCases)
        var report = TransportReport()
        for link in bench.links {
            for size in bench.sizes {
                for security in security.cases {
                    // Rounds of every implementation in turn, not each implementation's repeats in a
                    // block: a machine whose speed drifts over a minute then favours none of them.
                    let measured = TransportBenchmark.Implementation.allCases.filter(measures)
                    var runs: [TransportBenchmark.Implementation: [TransportBenchmark.Throughput]] = [:]
                    for _ in 0..<max(1, repeats) {
                        for implementation in measured {
                            runs[implementation, default: []].append(
                                try await bench.measureThroughput(
                                    link: link, size: size, implementation: implementation, security: security))
                        }
                    }
                    for implementation in measured {
                        let best = runs[implementation, default: []].max { $0.messagesPerSecond < $1.messagesPerSecond }!
                        report.throughput.append(best)
                        progress(
                            "one-way \(link) \(size) B \(implementation.rawValue) \(security.rawValue): "
                                + "\(Int(best.messagesPerSecond)) msgs/s")
                    }
                }
            }
            for security in security.cases {
                for implementation in [TransportBenchmark.Implementation.raw, .perMessage, .onIOThread]
                where !noRoundTrip && measures(implementation) {
                    var runs: [TransportBenchmark.RoundTrip] = []
                    for _ in 0..<max(1, repeats) {
                        runs.append(
                            try await bench.measureRoundTrip(link: link, implementation: implementation, security: security))
                    }
                    let median = runs.sorted { $0.p50Microseconds < $1.p50Microseconds }[runs.count / 2]
                    report.roundTrips.append(median)
                    progress(
                        "round trip \(link) \(implementation.rawValue) \(security.rawValue): p50 \(median.p50Microseconds) µs")
                }
            }
        }
        print(markdown ? report.markdown() : report.text())
    }

    private func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

struct BenchPeerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-peer",
        abstract: "The far end of a benchmark case (started by `ribcity bench`).",
        shouldDisplay: false
    )

    @Argument var role: String
    @Option var implementation: String
    @Option var endpoint: String
    @Option var count: Int
    @Option var size = 64
    @Option var serverKey: String?
    @Option var clientPublic: String?
    @Option var clientSecret: String?

    func run() async throws {
        guard let implementation = TransportBenchmark.Implementation(rawValue: implementation) else {
            throw ValidationError("unknown implementation \(self.implementation)")
        }
        var curve: (serverKey: String, publicKey: String, secretKey: String)?
        if let serverKey, let clientPublic, let clientSecret { curve = (serverKey, clientPublic, clientSecret) }
        try await TransportBenchmark.runPeer(
            role: role, implementation: implementation, endpoint: endpoint,
            count: count, size: size, curve: curve)
    }
}

extension TransportBenchmark.Link: ExpressibleByArgument {}
extension TransportBenchmark.Implementation: ExpressibleByArgument {}
