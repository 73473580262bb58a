import Foundation
import Testing
import Topology

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
        #expect(plan.sessions == "tcp://10.0.0.1:7000" && plan.busPublish == "tcp://10.0.0.1:7002")
        let riders = try #require(plan.processes.first { $0.name == "riders-0" })
        #expect(Supervisor.withoutTopology(riders.arguments).contains("--topology") == false)
        #expect(Supervisor.withoutTopology(riders.arguments).first == "riders")
    }
}
