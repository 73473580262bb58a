import AppHost
import ArgumentParser
import City
import Foundation
import ProcessSupport
import RideDispatch
import Scenarios
import SessionClient
import Simulation
import Topology
import Wire
import ZeroMQ

/// Where a rider or driver process connects, and which share of the topology's apps it hosts.
struct HostOptions: ParsableArguments {
    @OptionGroup var topologyFile: TopologyArgument
    var topology: String { topologyFile.path }

    @Option(help: "Which process of its role this is, from 0.")
    var process = 0

    @Option(
        help:
            "Dispatch's sessions endpoint; once per shard, in shard order, when dispatch is sharded (default: from the topology)."
    )
    var sessions: [String] = []

    @Option(
        help: ArgumentHelp(
            "Virtual time: dispatch's packet link for this machine's hosts (its --local-sessions), once per shard in shard order, used instead of --sessions.",
            valueName: "unix://PATH"))
    var localSessions: [String] = []

    @Option(help: "The bus proxy's publisher endpoint, for health reports (default: from the topology).")
    var publishTo: String?

    @Option(help: "Simulated seconds per wall second (default: the topology's).")
    var speed: Double?

    @Flag(help: "Print every message in and out, with the simulated time.")
    var trace = false

    @Option(
        help: ArgumentHelp(
            "The run's rides as the coordinator drew and placed them, instead of drawing them again "
                + "(`ribcity launch` writes it in the run directory).", valueName: "file"))
    var demand: String?

    @OptionGroup var virtualTime: VirtualTimeOptions

    @OptionGroup var faults: FaultOptions

    @OptionGroup var join: JoinOptions

    /// With `--join`: joins the run from this host as process `process` of `role`, and returns
    /// true once its part is over; false for a process the coordinator started itself.
    func joinedRun(as role: Role) async throws -> Bool {
        guard let address = join.join else { return false }
        try await RunJoining(
            role: role, process: process, topologyPath: topology, address: address,
            timeout: .milliseconds(Int64(join.joinTimeout * 1_000)), runSilence: .milliseconds(Int64(join.runSilence * 1_000))
        ).run()
        return true
    }
}

/// Runs a host of apps until it ends or is interrupted, and prints what it did.
func runHost(
    role: Role, options: HostOptions, plan: Topology, settings: AppHost.Settings,
    schedule: (PreparedTopology) -> [ScheduledApp]
) async throws {
    let prepared = try options.demand.map { try preparedTopology(plan, placedDemand: $0) } ?? prepareTopology(plan)
    let processes = role == .drivers ? plan.drivers.processes : plan.riders.processes
    guard (0..<processes).contains(options.process) else {
        throw ValidationError(
            "--process \(options.process): the topology has \(processes) \(role == .drivers ? "driver" : "rider") processes "
                + "(0 to \(processes - 1))"
        )
    }
    let apps = schedule(prepared)
    let name = (role == .drivers ? "drivers-" : "riders-") + "\(options.process)"
    let shardSessions = try shardSessionEndpoints(options.sessions, of: plan, option: "--sessions")
    let routing = try hostRouting(plan, options: options, prepared: prepared)
    let busAt = plan.endpoints.bus(run: plan.name, temporaryDirectory: NSTemporaryDirectory())
    try await Transport.using(name: name + "-io") { transport in
        try await secureRole(
            transport, as: name, sessions: shardSessions,
            bus: [
                options.publishTo ?? busAt.publish, options.virtualTime.subscribeTo ?? busAt.subscribe,
                options.virtualTime.keeperEndpoint(of: plan),
            ])
        let bus = try await transport.socket(.pub, options: .eventBus)
        try await bus.connect(options.publishTo ?? busAt.publish)
        // A session per run of the process: a restarted process is a new session, the old one expires.
        // A host with thousands of apps can be busy for a moment: give replies 3 s before retrying.
        // Ten attempts ride out a dispatch restart (its replay takes seconds on a big city).
        var sessionSettings = SessionClient.Settings()
        sessionSettings.timeout = .seconds(3)
        sessionSettings.attempts = 10
        sessionSettings.speed = options.speed ?? plan.speed
        // Each process draws its own faults: the seed is mixed with the process number.
        sessionSettings.faults = try options.faults.faults(
            stream: UInt64(options.process) &* 7_919 &+ (role == .drivers ? 0 : 104_729))
        // One session per shard, each its own (the same session id at two shards would be one
        // session to neither), all on this process's transport.
        let sessions = shardSessions.enumerated().map { shard, endpoint in
            SessionClient(
                transport: transport, endpoint: endpoint,
                hello: Hello.with {
                    $0.role = role
                    $0.sessionID = "\(name)-\(getpid())" + (shardSessions.count > 1 ? "-\(shard)" : "")
                    $0.pid = getpid()
                    $0.process = name
                }, settings: sessionSettings)
        }
        var settings = settings
        if options.trace { settings.trace = { print($0) } }
        let host = AppHost(
            role: role, processID: name, sessions: sessions, routing: routing, bus: bus, schedule: apps, settings: settings)
        // Told to stop from the moment it says it is ready (a stop before it runs is kept).
        let signals = await onInterrupt { Task { await host.stop() } }
        defer { signals.forEach { $0.cancel() } }
        print(
            "\(name) pid \(getpid()) ready: \(apps.count) apps to run; dispatch at \(shardSessions.joined(separator: ", "))")
        let readiness = ReadinessAnnouncer(role: role, processID: name, publisher: bus)
        // A monitor may ask for one of this host's apps' RIB trees at any time.
        let inspections = try await transport.socket(.sub, options: .eventBus)
        try await inspections.connect(options.virtualTime.subscribeTo ?? busAt.subscribe)
        try await inspections.subscribe(Topic.inspectRequest)
        let inspecting = Task { try await host.answerInspections(from: inspections) }
        defer { inspecting.cancel() }
        if let clock = try await options.virtualTime.clock(of: plan, as: name, on: transport) {
            // In virtual time the session is this process's own DEALER, named by the process's id, so
            // that dispatch numbers its replies on the link to it; its clock is the windows'.
            // Every process of a virtual run starts at once: dispatch may not have bound yet.
            var dealerOptions = SocketOptions.connectingToPeerStartedAlongside
            dealerOptions.routingID = Array(WireIDs.session(ofProcess: name, life: clock.life).utf8)
            let dispatchAt =
                options.localSessions.isEmpty
                ? shardSessions : try shardSessionEndpoints(options.localSessions, of: plan, option: "--local-sessions")
            var dealers: [Socket] = []
            for endpoint in dispatchAt {
                let dealer = try await transport.socket(.dealer, options: dealerOptions)
                try await dealer.connect(endpoint)
                dealers.append(dealer)
            }
            let speed = options.speed ?? plan.speed
            print(
                "\(name) runs in virtual time: life \(clock.life), latency \(clock.latency.wireMilliseconds) ms"
                    + (options.localSessions.isEmpty ? "" : "; dispatch over \(options.localSessions.joined(separator: ", "))"))
            try await host.runVirtual(
                AppHost.VirtualClock(
                    life: clock.life, latency: clock.latency, heartbeat: speed, timeout: 3 * speed,
                    sweep: settings.sweep / .seconds(1) * speed,
                    attempts: sessionSettings.attempts, faults: sessionSettings.faults),
                dealers: dealers, windows: clock.windows)
        } else {
            try await host.run()
        }
        readiness.stop()
        let totals = await host.totals
        print(
            "\(name) done: \(totals.started) apps started, \(totals.finished) finished, \(totals.messagesOut) messages sent, "
                + "\(totals.messagesIn) received, \(totals.failedRequests) failed requests, \(totals.unrouted) unrouted, "
                + "\(totals.leaks) leaks"
        )
        if !sessionSettings.faults.isEmpty {
            for session in sessions {
                print("\(name) message faults: \(await session.faults.summary); \(await session.reconnects) reconnects")
            }
        }
    }
}

/// `ribcity drivers --topology FILE --process N`: a driver process — its share of the
/// topology's drivers, each a driver app on its own actor, driving the legs dispatch hands out.
struct DriversCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drivers",
        abstract: "Run a driver process: many driver apps (RIB trees) over one session with dispatch.",
        discussion: """
            Examples:
              ribcity drivers --topology Topologies/downtown.yaml --process 0
              # on another host than the coordinator's
              ribcity drivers --topology city.yaml --process 1 --join tcp://10.0.0.1:5552
            """
    )

    @OptionGroup var options: HostOptions

    func run() async throws {
        if try await options.joinedRun(as: .drivers) { return }
        let plan = try readTopology(options.topology)
        try await runHost(role: .drivers, options: options, plan: plan, settings: AppHost.Settings()) { prepared in
            CityApps.drivers(of: prepared, process: options.process, of: plan.drivers.processes)
        }
    }
}

/// `ribcity riders --topology FILE --process N`: a rider process — its share of the topology's
/// rides, each a rider app opened when the rider asks and released when the ride has ended.
struct RidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "riders",
        abstract: "Run a rider process: a rider app (RIB tree) per ride, from request to rating; ends when every ride has.",
        discussion: """
            Examples:
              ribcity riders --topology Topologies/downtown.yaml --process 1 --trace
              ribcity riders --topology city.yaml --process 0 --join tcp://10.0.0.1:5552
            """
    )

    @OptionGroup var options: HostOptions

    @Option(help: "Leave out rides asked for before this simulated second (a restarted process: they were its previous run's).")
    var after: Double?

    @Option(help: "Times the topology's demand (synthetic demand only; the overload search raises it).")
    var demandScale = 1.0

    func run() async throws {
        if try await options.joinedRun(as: .riders) { return }
        let plan = try scaledTopology(options.topology, demandScale)
        var settings = AppHost.Settings()
        settings.endWhenAllFinished = true
        try await runHost(role: .riders, options: options, plan: plan, settings: settings) { prepared in
            CityApps.riders(of: prepared, process: options.process, of: plan.riders.processes, after: after)
        }
    }
}

/// Which shard a host's apps talk to: shard 0 for one dispatch; sharded, the shard whose region
/// holds a position, by the map every process computes from the topology as written.
private func hostRouting(_ plan: Topology, options: HostOptions, prepared: PreparedTopology) throws -> ShardRouting {
    guard plan.dispatchShards > 1 else { return .single }
    let written = try readTopology(options.topology)
    // Scaled demand: the demand as written is drawn again, on the roads already loaded.
    guard
        let map = try shardMap(
            of: written, prepared: written == plan ? prepared : nil, graph: prepared.scenario.graph)
    else { return .single }
    let snap = SnapIndex(graph: prepared.scenario.graph)
    return ShardRouting(shards: map.shards) { position in
        map.shard(ofNode: snap.nearestNode(to: GeoPoint(position)).node)
    }
}
