import Foundation
import Topology
import Wire

/// The processes of a run, in start order (dispatch, drivers, riders, then the monitor); shut
/// down in reverse. Every process gets the same topology file and the endpoints the coordinator
/// chose, so they find each other.
public struct LaunchPlan: Sendable {
    public let topology: Topology
    /// The topology file every process reads (each host its own copy of it).
    public let topologyPath: String
    public let processes: [ProcessSpec]
    /// Where each dispatch shard serves sessions (one endpoint unless the topology shards
    /// dispatch), and the bus proxy's two sides (hosted by the coordinator).
    public let sessions: [String]
    /// Virtual time on one machine without CURVE: where each shard also serves the run's own
    /// hosts over a Unix packet link (``Topology/localSessions(of:)``); empty otherwise.
    public let localSessions: [String]
    public let busPublish: String
    public let busSubscribe: String
    /// Virtual time: the coordinator's window link (a ROUTER the participants' DEALERs connect to).
    public let windows: String
    public let speed: Double
    /// Whether the run is in virtual time (docs/ARCHITECTURE.md, "Virtual time").
    public let virtual: Bool

    /// How long the run may take on the wall clock before the coordinator stops it, a guard
    /// against a city that hangs: in wall time 3× the topology's duration at its speed, plus 2
    /// minutes; in virtual time, where the speed says nothing about the wall, an hour for each 10
    /// simulated hours, plus 10 minutes (a whole day of Manhattan takes about 10 minutes).
    public var defaultWallLimit: Duration {
        let seconds = virtual ? topology.duration / 10 + 600 : topology.duration / speed * 3 + 120
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// The processes in start order, in stages the coordinator starts together and waits for
    /// together: the dispatch shards as one stage, the driver processes as the next, the rider processes as the next (each loads
    /// the city, and draws the demand unless it was handed the rides, seconds apiece on whole
    /// Manhattan, and the machine's cores can do that side by side); every other process alone, so that dispatch is up before any
    /// host and the hosts before the monitor. Drivers stay ahead of riders: on the wall clock a
    /// rider asking before any driver is online would find nobody. In virtual time nothing
    /// happens before every participant has joined, so dispatch and the hosts start as one stage:
    /// dispatch builds its routing while the hosts load the city (nyc-day: 31 s of loading in
    /// three stages, one core idle while dispatch loaded alone).
    public var startStages: [[ProcessSpec]] {
        var stages: [[ProcessSpec]] = []
        for spec in processes {
            if spec.participates, let last = stages.last?.last, last.participates, virtual || last.role == spec.role {
                stages[stages.count - 1].append(spec)
            } else {
                stages.append([spec])
            }
        }
        return stages
    }

    /// What `spec` is started with: its arguments, and for each shard of a sharded dispatch on the
    /// wall clock the clock origin they all share (`clockOriginMs`, Unix milliseconds), so that
    /// they agree on simulated time. Each would otherwise start its clock when it had loaded its
    /// city, and two shards ready 200 ms apart at 60× would stamp one moment 12 s apart.
    public func startArguments(of spec: ProcessSpec, clockOriginMs: Int64) -> [String] {
        guard needsClockOrigin(spec) else { return spec.arguments }
        return spec.arguments + ["--clock-origin-ms", "\(clockOriginMs)"]
    }

    /// Whether `spec` is started with a shared clock origin (``startArguments(of:clockOriginMs:)``).
    public func needsClockOrigin(_ spec: ProcessSpec) -> Bool {
        spec.role == .dispatch && !virtual && topology.dispatchShards > 1
    }

    /// The processes that take part in virtual time: dispatch, the driver and rider processes.
    public var participants: [String] {
        processes.filter(\.participates).map(\.name)
    }

    /// - Parameters:
    ///   - topologyPath: the file the processes read.
    ///   - speed: overrides the topology's time speed.
    ///   - monitor: whether to run the monitor process (its output goes to the terminal or its log).
    ///   - monitorJSON: the monitor prints JSON lines instead of a dashboard.
    ///   - hostArguments: added to every driver and rider process (stress mode's message faults).
    ///   - riderArguments: added to every rider process (the overload search's demand scale).
    ///   - dispatchArguments: added to dispatch (stress mode's faults in what it sends).
    ///   - recorder: the `ribcity-recorder` program and the database it writes: started first (so
    ///     that it hears everything) and stopped last.
    ///   - web: the `ribcity-web` program and the port it serves the run's page on.
    ///   - journal: dispatch's journal; with one, a dispatch that dies is restarted and restores
    ///     the run from it. Without, dispatch's death ends the run.
    public init(
        topology: Topology, topologyPath: String, speed: Double?, monitor: Bool, monitorJSON: Bool = false,
        hostArguments: [String] = [], riderArguments: [String] = [], dispatchArguments: [String] = [], journal: String? = nil,
        recorder: (program: String, database: String)? = nil, web: (program: String, port: Int)? = nil, virtual: Bool = false,
        temporaryDirectory: String = NSTemporaryDirectory(), run: String? = nil, runDirectory: String? = nil
    ) {
        self.topology = topology
        self.topologyPath = topologyPath
        self.virtual = virtual || topology.clockMode == .virtual
        let speed = speed ?? topology.speed
        self.speed = speed
        // ipc sockets are named after the run, so two runs of one topology never share them.
        let shards = topology.dispatchShards
        let sessions = topology.endpoints.shardSessions(shards, run: run ?? topology.name, temporaryDirectory: temporaryDirectory)
        let bus = topology.endpoints.bus(run: run ?? topology.name, temporaryDirectory: temporaryDirectory)
        self.sessions = sessions
        let localSessions = self.virtual ? sessions.compactMap(topology.localSessions(of:)) : []
        self.localSessions = localSessions.count == sessions.count ? localSessions : []
        // Every client of dispatch is told each shard's endpoint, in shard order.
        let allSessions = sessions.flatMap { ["--sessions", $0] }
        // The run's hosts on this machine reach each shard over its packet link.
        let hostSessions = allSessions + self.localSessions.flatMap { ["--local-sessions", $0] }
        busPublish = bus.publish
        busSubscribe = bus.subscribe
        let windows = topology.windowLink(run: run ?? topology.name, temporaryDirectory: temporaryDirectory)
        self.windows = windows
        let common = ["--topology", topologyPath, "--speed", "\(speed)"]
        // Dispatch hears only its sessions; hosts follow the bus (in wall time too: a monitor may
        // ask for an app's RIB tree).
        let participant = self.virtual ? ["--virtual", "--window-keeper", windows] : []
        let follower = participant + ["--subscribe-to", bus.subscribe]
        var processes: [ProcessSpec] = []
        if let recorder {
            processes.append(
                ProcessSpec(
                    name: "recorder", role: .recorder, executable: recorder.program,
                    arguments: [
                        "record", "--bus", bus.subscribe, "--database", recorder.database,
                        "--fact", "topology=\(topology.name)", "--fact", "speed=\(speed)",
                        "--publish-to", bus.publish,
                    ],
                    restart: .supervised))
        }
        for shard in 0..<shards {
            processes.append(
                ProcessSpec(
                    name: WireIDs.dispatchProcess(shard: shard, of: shards), role: .dispatch,
                    arguments: ["dispatch"] + common + participant + ["--sessions", sessions[shard], "--publish-to", bus.publish]
                        + (self.localSessions.isEmpty ? [] : ["--local-sessions", self.localSessions[shard]])
                        + (shards > 1 ? ["--shard", "\(shard)"] + sessions.flatMap { ["--shard-sessions", $0] } : [])
                        + (journal.map { ["--journal", Self.journal($0, shard: shard, of: shards)] } ?? []) + dispatchArguments,
                    restart: journal == nil ? .never : .supervised))
        }
        // On another host than the coordinator's, a process is started there and joins.
        let elsewhere = { (host: Topology.Host?) in host == topology.hosts.first ? nil : host }
        for index in 0..<topology.drivers.processes {
            var spec = ProcessSpec(
                name: WireIDs.driverProcess(index), role: .drivers,
                arguments: ["drivers"] + common + follower + [
                    "--process", "\(index)", "--publish-to", bus.publish,
                ] + (elsewhere(topology.hostOfDrivers(index)) == nil ? hostSessions : allSessions) + hostArguments,
                restart: .supervised)
            spec.host = elsewhere(topology.hostOfDrivers(index))
            processes.append(spec)
        }
        for index in 0..<topology.riders.processes {
            var spec = ProcessSpec(
                name: WireIDs.riderProcess(index), role: .riders,
                arguments: ["riders"] + common + follower + [
                    "--process", "\(index)", "--publish-to", bus.publish,
                ]
                    + (elsewhere(topology.hostOfRiders(index)) == nil ? hostSessions : allSessions) + hostArguments
                    + riderArguments,
                restart: .supervised, finishesRun: true,
                restartArguments: { time in ["--after", "\(time)"] })
            spec.host = elsewhere(topology.hostOfRiders(index))
            processes.append(spec)
        }
        if monitor {
            processes.append(
                ProcessSpec(
                    name: "monitor", role: .monitor,
                    arguments: [
                        "monitor", "--topology", topologyPath, "--bus", bus.subscribe, "--publish-to", bus.publish,
                    ] + allSessions
                        + (monitorJSON ? ["--json"] : []) + (runDirectory.map { ["--run-directory", $0] } ?? []),
                    restart: .supervised))
        }
        if let web {
            processes.append(
                ProcessSpec(
                    name: "web", role: .monitor, executable: web.program,
                    arguments: [
                        "--topology", topologyPath, "--port", "\(web.port)", "--bus", bus.subscribe, "--publish-to", bus.publish,
                    ] + allSessions + (runDirectory.map { ["--run-directory", $0] } ?? []),
                    restart: .supervised, outlivesRun: true))
        }
        self.processes = processes
    }

    /// Shard `shard`'s journal: the run's journal path itself with one shard; with several,
    /// `NAME-K.EXT` beside it, so that each shard restores from its own.
    public static func journal(_ path: String, shard: Int, of shards: Int) -> String {
        guard shards > 1 else { return path }
        let ext = (path as NSString).pathExtension
        let stem = (path as NSString).deletingPathExtension
        return ext.isEmpty ? "\(stem)-\(shard)" : "\(stem)-\(shard).\(ext)"
    }
}
