import Foundation
import Testing
import Topology
import Wire

@testable import Coordinator

@Suite("Launch plans: the wall-time guard of a run")
struct LaunchPlanTests {
    static let topologies = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Topologies")

    func plan(_ name: String, virtual: Bool = false, monitor: Bool = false) throws -> LaunchPlan {
        let path = Self.topologies.appendingPathComponent("\(name).yaml").path
        return LaunchPlan(
            topology: try TopologyReader.read(path: path), topologyPath: path, speed: nil, monitor: monitor, virtual: virtual)
    }

    @Test("In wall time the guard follows the speed; in virtual time it follows the simulated duration only")
    func wallLimit() throws {
        // downtown: an hour at 60×, 3 × 60 s + 2 min.
        #expect(try plan("downtown").defaultWallLimit == .seconds(300))
        // The same hour in virtual time: 6 min + 10 min, whatever the speed says.
        #expect(try plan("downtown", virtual: true).defaultWallLimit == .seconds(960))
        // nyc-day (a day, speed 600, virtual in its file) was stopped after 552 s, at noon: now 2 h 34 min.
        let day = try plan("nyc-day")
        #expect(day.virtual)
        #expect(day.defaultWallLimit == .seconds(86_400 / 10 + 600))
    }

    @Test("Processes start in stages: dispatch alone, the driver processes together, then the rider processes, then the monitor")
    func startStages() throws {
        let metro = try plan("metro", monitor: true)
        let stages = metro.startStages.map { $0.map(\.name) }
        #expect(
            stages == [
                ["dispatch"], ["drivers-0", "drivers-1", "drivers-2", "drivers-3"],
                ["riders-0", "riders-1", "riders-2", "riders-3"], ["monitor"],
            ])
        #expect(stages.flatMap { $0 } == metro.processes.map(\.name), "the stages keep the start order")
    }

    @Test("In virtual time dispatch and the hosts start as one stage (nothing happens before all have joined), the monitor after")
    func virtualStartStages() throws {
        let metro = try plan("metro", virtual: true, monitor: true)
        let stages = metro.startStages.map { $0.map(\.name) }
        #expect(
            stages == [
                [
                    "dispatch", "drivers-0", "drivers-1", "drivers-2", "drivers-3", "riders-0", "riders-1", "riders-2",
                    "riders-3",
                ],
                ["monitor"],
            ])
        #expect(stages.first == metro.participants)
    }
}

@Suite("Launch plans across hosts")
struct LaunchPlanHostsTests {
    @Test("Processes on the coordinator's host are started by it; the others are marked with their host, to join")
    func hosts() throws {
        var topology = try TopologyReader.parse(
            """
            city: { grid: {} }
            drivers: { processes: 3, host: [hub, fleet] }
            riders: { processes: 1, host: town, demand: { synthetic: { peak_per_hour: 5 } } }
            endpoints: { transport: tcp, base_port: 7000 }
            hosts: [{ name: hub, address: 10.0.0.1 }, { name: fleet, address: 10.0.0.2 }, { name: town, address: 10.0.0.3 }]
            """, file: "hosts.yaml", directory: "/")
        topology.name = "hosts"
        let plan = LaunchPlan(topology: topology, topologyPath: "/x/hosts.yaml", speed: nil, monitor: true)
        let hosts = Dictionary(uniqueKeysWithValues: plan.processes.map { ($0.name, $0.host?.name ?? "-") })
        #expect(
            hosts == [
                "dispatch": "-", "drivers-0": "-", "drivers-1": "fleet", "drivers-2": "-", "riders-0": "town", "monitor": "-",
            ])
        #expect(plan.sessions == ["tcp://10.0.0.1:7000"] && plan.busPublish == "tcp://10.0.0.1:7002")
        let riders = try #require(plan.processes.first { $0.name == "riders-0" })
        #expect(Supervisor.withoutTopology(riders.arguments).contains("--topology") == false)
        #expect(Supervisor.withoutTopology(riders.arguments).first == "riders")
    }
}

@Suite("Launch plans with sharded dispatch")
struct LaunchPlanShardsTests {
    @Test(
        "dispatch: {shards: 3} starts three dispatch processes together, each with its endpoint, journal and --shard; every client is told all three"
    )
    func shards() throws {
        var topology = try TopologyReader.parse(
            """
            city: { grid: {} }
            dispatch: { shards: 3 }
            drivers: { processes: 1 }
            riders: { processes: 1, demand: { synthetic: { peak_per_hour: 5 } } }
            endpoints: { transport: tcp, base_port: 7000 }
            """, file: "shards.yaml", directory: "/")
        topology.name = "shards"
        let plan = LaunchPlan(
            topology: topology, topologyPath: "/x/shards.yaml", speed: nil, monitor: true, journal: "/runs/dispatch.journal")
        #expect(plan.sessions == ["tcp://127.0.0.1:7000", "tcp://127.0.0.1:7004", "tcp://127.0.0.1:7005"])
        #expect(plan.startStages.map { $0.map(\.name) }.first == ["dispatch-0", "dispatch-1", "dispatch-2"])
        for shard in 0..<3 {
            let spec = try #require(plan.processes.first { $0.name == "dispatch-\(shard)" })
            let arguments = spec.arguments.joined(separator: " ")
            #expect(spec.role == .dispatch && spec.restart == .supervised)
            #expect(
                arguments.contains("--shard \(shard)") && arguments.contains("--sessions \(plan.sessions[shard])"), "\(arguments)"
            )
            #expect(arguments.contains("--journal /runs/dispatch-\(shard).journal"), "\(arguments)")
        }
        let allThree = plan.sessions.map { "--sessions \($0)" }.joined(separator: " ")
        for name in ["drivers-0", "riders-0", "monitor"] {
            let spec = try #require(plan.processes.first { $0.name == name })
            #expect(spec.arguments.joined(separator: " ").contains(allThree), "\(name): \(spec.arguments)")
        }
        #expect(LaunchPlan.journal("/runs/dispatch.journal", shard: 0, of: 1) == "/runs/dispatch.journal")
        #expect(WireIDs.role(ofProcess: "dispatch-2") == .dispatch && WireIDs.role(ofProcess: "dispatch-x") == .tool)
        // A shard's journal names its process, and the process its shard (bench recovery reads it).
        let journal = (LaunchPlan.journal("/runs/dispatch.journal", shard: 2, of: 3) as NSString).lastPathComponent
        #expect(WireIDs.shard(ofDispatchProcess: (journal as NSString).deletingPathExtension) == 2)
        #expect(WireIDs.shard(ofDispatchProcess: "dispatch") == 0 && WireIDs.shard(ofDispatchProcess: "dispatch-02") == nil)
        #expect(WireIDs.offerPrefix(shard: 1) == "offer-1." && WireIDs.offerPrefix(shard: nil) == "offer-")
        #expect(Coordinator.keyNames(for: topology).contains("dispatch-2"))
    }
    @Test(
        "On the wall clock every dispatch shard is started with one clock origin, so that the shards agree on simulated time; one dispatch, other roles and virtual time take none"
    )
    func sharedClockOrigin() throws {
        let text = """
            city: { grid: {} }
            dispatch: { shards: 2 }
            drivers: { processes: 1 }
            riders: { processes: 1, demand: { synthetic: { peak_per_hour: 5 } } }
            """
        let sharded = try TopologyReader.parse(text, file: "shards.yaml", directory: "/")
        let wall = LaunchPlan(topology: sharded, topologyPath: "/x/shards.yaml", speed: nil, monitor: false)
        #expect(wall.processes.filter { $0.role == .dispatch }.count == 2)
        for spec in wall.processes {
            let arguments = wall.startArguments(of: spec, clockOriginMs: 1_700_000_000_000)
            if spec.role == .dispatch {
                #expect(Array(arguments.suffix(2)) == ["--clock-origin-ms", "1700000000000"], "\(spec.name)")
                #expect(Array(arguments.dropLast(2)) == spec.arguments)
            } else {
                #expect(arguments == spec.arguments, "\(spec.name)")
            }
        }
        let virtual = LaunchPlan(topology: sharded, topologyPath: "/x/shards.yaml", speed: nil, monitor: false, virtual: true)
        #expect(virtual.processes.allSatisfy { !virtual.needsClockOrigin($0) }, "virtual time keeps its own clock")
        // Every participant is told where the coordinator's window link is; the others are not.
        for spec in virtual.processes {
            let told = spec.arguments.joined(separator: " ").contains("--window-keeper \(virtual.windows)")
            #expect(told == [.dispatch, .drivers, .riders].contains(spec.role), "\(spec.name): \(spec.arguments)")
        }
        #expect(!wall.processes.contains { $0.arguments.contains("--window-keeper") })
        // In virtual time each shard also serves the run's hosts over a packet link, and they use it.
        #expect(virtual.localSessions == virtual.sessions.map { "unix://" + $0.dropFirst("ipc://".count) + ".local" })
        for spec in virtual.processes {
            let given = zip(spec.arguments, spec.arguments.dropFirst()).filter { $0.0 == "--local-sessions" }.map(\.1)
            switch spec.role {
            case .dispatch: #expect(given == [virtual.localSessions[WireIDs.shard(ofDispatchProcess: spec.name) ?? 0]])
            case .drivers, .riders: #expect(given == virtual.localSessions, "\(spec.name)")
            default: #expect(given.isEmpty, "\(spec.name)")
            }
        }
        #expect(wall.localSessions.isEmpty && !wall.processes.contains { $0.arguments.contains("--local-sessions") })
        let single = try TopologyReader.parse(
            text.replacingOccurrences(of: "shards: 2", with: "shards: 1"), file: "one.yaml", directory: "/")
        let one = LaunchPlan(topology: single, topologyPath: "/x/one.yaml", speed: nil, monitor: false)
        #expect(one.processes.allSatisfy { !one.needsClockOrigin($0) })
    }
}
