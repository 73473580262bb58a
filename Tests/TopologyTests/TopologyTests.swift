import City
import Foundation
import RideDispatch
import Testing

@testable import Scenarios
@testable import Topology

/// The repository's `Topologies/` folder.
let topologies = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Topologies")

@Suite("Topologies: the shipped files, and clear errors for bad ones")
struct TopologyTests {
    @Test(
        "Every shipped topology is valid and prepares a runnable scenario",
        arguments: ["downtown", "grid-sumo", "nyc-replay", "metro", "manhattan"])
    func shipped(name: String) throws {
        let topology = try TopologyReader.read(path: topologies.appendingPathComponent("\(name).yaml").path)
        #expect(topology.name == name)
        let prepared = try PreparedTopology(topology)
        #expect(prepared.scenario.drivers.count == topology.drivers.total)
        #expect(prepared.scenario.trips.count > 100, "\(prepared.scenario.trips.count) rides")
        #expect(prepared.scenario.trips.allSatisfy { $0.time < topology.duration })
    }

    @Test("Demand scales for the overload search: synthetic demand's peak rate; a replay cannot be scaled")
    func scaledDemand() throws {
        let downtown = try TopologyReader.read(path: topologies.appendingPathComponent("downtown.yaml").path)
        guard case .synthetic(let peak, _, _, _, _) = downtown.riders.demand,
            case .synthetic(let doubled, _, _, _, _) = try downtown.scalingDemand(by: 2).riders.demand
        else {
            Issue.record("downtown's demand is synthetic")
            return
        }
        #expect(doubled == peak * 2)
        #expect(
            try PreparedTopology(downtown.scalingDemand(by: 2)).scenario.trips.count > PreparedTopology(downtown).scenario.trips
                .count * 3 / 2)
        #expect(throws: TopologyError.self) { try downtown.scalingDemand(by: 0) }
        let replay = try TopologyReader.read(path: topologies.appendingPathComponent("nyc-replay.yaml").path)
        let refusal = #expect(throws: TopologyError.self) { try replay.scalingDemand(by: 2) }
        #expect(refusal?.key == "riders.demand")
    }

    @Test("A topology prepared on its city already loaded places the same rides and drivers as one that loads it")
    func preparedOnLoadedCity() throws {
        let downtown = try TopologyReader.read(path: topologies.appendingPathComponent("downtown.yaml").path)
        let loading = try PreparedTopology(downtown).scenario
        let given = try PreparedTopology(downtown, graph: try downtown.city.load()).scenario
        #expect(given.trips == loading.trips && given.trips.count > 100)
        #expect(given.drivers == loading.drivers && given.graph.nodeCount == loading.graph.nodeCount)
    }

    @Test("Rides drawn in one process and handed to another make the same scenario there: the same rides and drivers")
    func preparedFromDrawnRides() throws {
        let downtown = try TopologyReader.read(path: topologies.appendingPathComponent("downtown.yaml").path)
        let drawn = try PreparedTopology(downtown).scenario
        #expect(drawn.trips.contains { $0.product == .pool } && drawn.trips.allSatisfy { $0.patienceSeconds != nil })
        let handed = PreparedTopology(downtown, graph: drawn.graph, drawnRides: drawn.trips)
        #expect(handed.scenario.trips == drawn.trips && handed.offered == drawn.trips.count)
        #expect(handed.scenario.drivers == drawn.drivers && handed.scenario.drivers.count == downtown.drivers.total)
        #expect(handed.scenario.startSecondOfDay == drawn.startSecondOfDay && handed.scenario.duration == drawn.duration)
    }

    @Test("grid-sumo is SUMO's reference workload")
    func gridSumo() throws {
        let topology = try TopologyReader.read(path: topologies.appendingPathComponent("grid-sumo.yaml").path)
        #expect(topology.city == .grid(GridCity(width: 5_000, height: 5_000, blockLength: 250, speedKmh: 50)))
        #expect(topology.dispatch.strategy == .greedy(interval: 60))
        let scenario = try PreparedTopology(topology).scenario
        #expect(scenario.drivers.count == 200 && scenario.trips.count == 2_000)
        #expect(scenario.trips.enumerated().allSatisfy { abs($0.element.time - Double($0.offset) * 1.8) < 1e-9 }, "evenly spread")
        #expect(
            scenario.trips.allSatisfy {
                scenario.graph.positions[$0.origin].distance(to: scenario.graph.positions[$0.destination]) >= 500
            }, "corners at least 500 m apart")
        #expect(scenario.drivers.allSatisfy { $0.acceptance == 1 && $0.responseSeconds == 0 })
    }

    static let valid = """
        name: tiny
        city:
          grid: { width_m: 1000, height_m: 1000, block_m: 250, speed_kmh: 36 }
        clock: { speed: 120, duration: 30m, start_time: "07:30", mode: virtual }
        network: { latency_ms: 250 }
        dispatch:
          strategy: greedy
          interval_s: 10
          pricing: { base_cents: 100 }
        drivers: { processes: 2, per_process: 5, acceptance: [0.5, 0.9] }
        riders:
          processes: 1
          demand:
            synthetic: { peak_per_hour: 100 }
        features: { rider.promotions: false, rider.split_fare: { share: 0.5, fail_rate: 0.1 }, rider.share_eta: true }
        endpoints: { transport: tcp, base_port: 6000 }
        """

    @Test("A valid file: every section read, defaults where silent")
    func parsesValid() throws {
        let topology = try TopologyReader.parse(Self.valid, file: "tiny.yaml", directory: "/")
        #expect(topology.speed == 120 && topology.duration == 1_800 && topology.startSecondOfDay == 7.5 * 3_600)
        #expect(topology.dispatch.strategy == .greedy(interval: 10) && topology.dispatch.pricing.baseCents == 100)
        #expect(topology.dispatch.pricing.minimumCents == Pricing().minimumCents)
        #expect(topology.drivers.total == 10 && topology.drivers.acceptance == 0.5...0.9)
        #expect(
            topology.features == [
                "rider.promotions": .off, "rider.split_fare": FeatureSetting(share: 0.5, failRate: 0.1), "rider.share_eta": .on,
            ])
        #expect(topology.endpoints.transport == .tcp && topology.endpoints.basePort == 6_000)
        #expect(topology.clockMode == .virtual && topology.latencyMs == 250)
        let silent = try TopologyReader.parse(
            Self.valid.replacingOccurrences(of: ", mode: virtual", with: "").replacingOccurrences(
                of: "network: { latency_ms: 250 }\n", with: ""), file: "tiny.yaml", directory: "/")
        #expect(silent.clockMode == .wall && silent.latencyMs == 500, "wall clock and 500 ms unless said")
        #expect(silent.drivers.locationEverySeconds == 15, "a moving car reports every 15 s unless said")
        for (text, expected) in [("60", 60.0), ("0", nil)] as [(String, Double?)] {
            let said = try TopologyReader.parse(
                Self.valid.replacingOccurrences(of: "drivers: {", with: "drivers: { location_every_s: \(text),"),
                file: "tiny.yaml", directory: "/")
            #expect(said.drivers.locationEverySeconds == expected, "location_every_s: \(text)")
        }
        #expect(topology.curve == nil && topology.usesCurve, "CURVE is on over tcp unless said")
        let ipc = try TopologyReader.parse(
            Self.valid.replacingOccurrences(of: "transport: tcp", with: "transport: ipc"), file: "tiny.yaml", directory: "/")
        #expect(!ipc.usesCurve, "and off over ipc")
        for (text, expected) in [("on", true), ("off", false), ("true", true)] {
            let said = try TopologyReader.parse(
                Self.valid + "\nsecurity: { curve: \(text) }\n", file: "tiny.yaml", directory: "/")
            #expect(said.usesCurve == expected, "curve: \(text)")
        }
    }

    /// Each case replaces one section of the valid file (or adds one) and names the bad key, its
    /// line within the new section, and what the error must say.
    @Test(
        "Bad files: the error names the file, key, line and reason",
        arguments: [
            ("dispatch:\n  strategy: greedy\n  intervall_s: 10", "dispatch.intervall_s", 3, "unknown key"),
            ("dispatch:\n  strategy: gready", "dispatch.strategy", 2, "'gready' is not one of greedy, batched, on-arrival"),
            ("clock: { speed: fast }", "clock.speed", 1, "must be a number"),
            ("clock: { duration: 2 days }", "clock.duration", 1, "must be a duration"),
            ("clock: { mode: fast }", "clock.mode", 1, "'fast' is not one of wall, virtual"),
            ("network: { latency_ms: 0 }", "network.latency_ms", 1, "must be between 1 and 60000"),
            ("drivers: { processes: 0 }", "drivers.processes", 1, "must be between 1 and 64"),
            ("drivers: { location_every_s: -1 }", "drivers.location_every_s", 1, "must be between 0"),
            ("extra: 1", "extra", 1, "unknown key"),
            ("features: { rider.split_fare: { fail_rate: 2 } }", "features.rider.split_fare.fail_rate", 1, "must be between 0"),
            ("features: { rider.split_fare: { shar: 1 } }", "features.rider.split_fare.shar", 1, "unknown key"),
            ("features: { rider.split_fare: maybe }", "features.rider.split_fare", 1, "must be true or false"),
        ])
    func badFiles(change: (yaml: String, key: String, line: Int, reason: String)) {
        let section = String(change.yaml.prefix { $0 != ":" })
        var lines = Self.valid.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let start = lines.firstIndex(where: { $0.hasPrefix(section + ":") }) {
            var end = start + 1
            while end < lines.count, lines[end].hasPrefix(" ") { end += 1 }
            lines.removeSubrange(start..<end)
        }
        let before = lines.count
        lines += change.yaml.split(separator: "\n").map(String.init)
        let text = lines.joined(separator: "\n")
        let error = #expect(throws: TopologyError.self) { try TopologyReader.parse(text, file: "bad.yaml", directory: "/") }
        #expect(error?.file == "bad.yaml")
        #expect(error?.key == change.key)
        #expect(error?.line == before + change.line, "\(String(describing: error))")
        #expect(error?.reason.contains(change.reason) == true, "\(String(describing: error))")
    }

    @Test(
        "A city across hosts: hosts named with addresses, the coordinator's first; each group's processes take its hosts in turn")
    func hosts() throws {
        let topology = try TopologyReader.parse(
            """
            city: { grid: { width_m: 1000 } }
            drivers: { processes: 3, host: [fleet, hub] }
            riders: { processes: 2, host: town, demand: { synthetic: { peak_per_hour: 10 } } }
            endpoints: { transport: tcp, base_port: 6000 }
            hosts:
              - { name: hub, address: 10.77.1.1 }
              - { name: fleet, address: 10.77.1.2 }
              - { name: town, address: town.example }
            """, file: "hosts.yaml", directory: "/")
        #expect(topology.hosts.map(\.name) == ["hub", "fleet", "town"])
        #expect(topology.endpoints.host == "10.77.1.1", "the bus and dispatch are on the coordinator's host")
        #expect((0..<3).map { topology.hostOfDrivers($0)?.name } == ["fleet", "hub", "fleet"])
        #expect((0..<2).map { topology.hostOfRiders($0)?.address } == ["town.example", "town.example"])
        let text = TopologyWriter.yaml(topology)
        #expect(try TopologyReader.parse(text, file: "hosts.yaml", directory: "/") == topology, "\(text)")
        let oneMachine = try TopologyReader.parse(Self.valid, file: "tiny.yaml", directory: "/")
        #expect(oneMachine.hosts.isEmpty && oneMachine.hostOfDrivers(0) == nil)
        #expect(topology.endpoints.listening(on: "tcp://10.77.1.1:6000") == "tcp://*:6000", "servers listen on every interface")
        #expect(oneMachine.endpoints.listening(on: "tcp://127.0.0.1:6000") == "tcp://127.0.0.1:6000")

        let hosts = "hosts: [{ name: hub, address: 10.0.0.1 }, { name: b, address: 10.0.0.2 }]"
        let tcp = "endpoints: { transport: tcp }"
        let base = "city: { grid: {} }\ndrivers: {}\nriders: { demand: { synthetic: { peak_per_hour: 5 } } }\n"
        let drivingOn = { (host: String) in base.replacingOccurrences(of: "drivers: {}", with: "drivers: { host: \(host) }") }
        let cases: [(String, String)] = [
            (base + hosts, "hosts: a city across hosts talks over tcp"),
            (
                base + hosts + "\nendpoints: { transport: tcp, host: 10.0.0.9 }",
                "endpoints.host: is 10.0.0.9, but the coordinator's host"
            ),
            (drivingOn("c") + hosts + "\n" + tcp, "drivers.host: no host named 'c' (hosts: hub, b)"),
            (drivingOn("b"), "names host 'b', but the topology has no hosts"),
            (
                base + "hosts: [{ name: a, address: \"tcp://10.0.0.1:5\" }]\n" + tcp,
                "hosts[0].address: must be a host name or an IP"
            ),
            (base + "hosts: [{ name: a, address: x }, { name: a, address: y }]\n" + tcp, "hosts[1].name: 'a' is named twice"),
            (base + "hosts: []\n" + tcp, "hosts: must be a list"),
        ]
        for (text, expected) in cases {
            let error = #expect(throws: TopologyError.self) { try TopologyReader.parse(text, file: "bad.yaml", directory: "/") }
            #expect(error?.description.contains(expected) == true, "\(String(describing: error)) should contain \(expected)")
        }
    }

    @Test("dispatch: {shards: N, border: {…}} is read, written back, and refused when out of range, naming the key and line")
    func shards() throws {
        let base = "city: { grid: {} }\ndrivers: {}\nriders: { demand: { synthetic: { peak_per_hour: 5 } } }\n"
        let sharded = try TopologyReader.parse(base + "dispatch: { shards: 4 }\n", file: "s.yaml", directory: "/")
        #expect(sharded.dispatchShards == 4)
        #expect(try TopologyReader.parse(base, file: "s.yaml", directory: "/").dispatchShards == 1)
        let written = TopologyWriter.yaml(sharded)
        #expect(try TopologyReader.parse(written, file: "w.yaml", directory: "/").dispatchShards == 4)
        #expect(sharded.border == BorderPlan())
        let bordered = try TopologyReader.parse(
            base + "dispatch: { shards: 2, border: { margin_s: 90, reach_zones: 2, patience_s: 5 } }\n", file: "b.yaml",
            directory: "/")
        #expect(bordered.border.marginSeconds == 90 && bordered.border.reachZones == 2 && bordered.border.patienceSeconds == 5)
        #expect(try TopologyReader.parse(TopologyWriter.yaml(bordered), file: "w.yaml", directory: "/").border == bordered.border)
        let cases: [(String, String)] = [
            (base + "dispatch: { shards: 2, border: { margin_s: -1 } }\n", "bad.yaml:4: dispatch.border.margin_s:"),
            (base + "dispatch: { shards: 2, border: { reach: 1 } }\n", "dispatch.border.reach: unknown key"),
            (base + "dispatch: { shards: 0 }\n", "bad.yaml:4: dispatch.shards:"),
            (base + "dispatch: { shards: 65 }\n", "dispatch.shards:"),
            (base + "dispatch:\n  strategy: greedy\n  shards: two\n", "bad.yaml:6: dispatch.shards: must be"),
        ]
        for (text, expected) in cases {
            let error = #expect(throws: TopologyError.self) { try TopologyReader.parse(text, file: "bad.yaml", directory: "/") }
            #expect(error?.description.contains(expected) == true, "\(String(describing: error)) should contain \(expected)")
        }
        let endpoints = Topology.Endpoints(transport: .ipc)
        #expect(
            endpoints.shardSessions(3, run: "x", temporaryDirectory: "/t")
                == ["ipc:///t/ribcity-x-dispatch", "ipc:///t/ribcity-x-dispatch-1", "ipc:///t/ribcity-x-dispatch-2"])
    }

    @Test(
        "The window link has an endpoint of its own, on tcp the port after the last shard's: no two endpoints of a run share one")
    func windowLinkEndpoint() {
        let ipc = Topology.Endpoints(transport: .ipc)
        #expect(ipc.windows(run: "x", temporaryDirectory: "/t", shards: 1) == "ipc:///t/ribcity-x-windows")
        let tcp = Topology.Endpoints(transport: .tcp, host: "10.0.0.1", basePort: 6_000)
        for shards in [1, 2, 4] {
            let bus = tcp.bus(run: "x", temporaryDirectory: "/t")
            let all =
                tcp.shardSessions(shards, run: "x", temporaryDirectory: "/t")
                + [tcp.dispatch(run: "x", temporaryDirectory: "/t").bus, bus.publish, bus.subscribe]
                + [tcp.windows(run: "x", temporaryDirectory: "/t", shards: shards)]
            #expect(Set(all).count == all.count, "\(shards) shards: \(all)")
        }
        #expect(tcp.windows(run: "x", temporaryDirectory: "/t", shards: 1) == "tcp://10.0.0.1:6004")
    }

    @Test("The window link is a Unix packet link over ipc without CURVE, and libzmq's otherwise (CURVE needs it)")
    func windowLinkKind() throws {
        let base = "city: { grid: {} }\ndrivers: {}\nriders: { demand: { synthetic: { peak_per_hour: 5 } } }\n"
        func link(_ extra: String) throws -> String {
            try TopologyReader.parse(base + extra, file: "t.yaml", directory: "/").windowLink(run: "x", temporaryDirectory: "/t")
        }
        #expect(try link("") == "unix:///t/ribcity-x-windows")
        #expect(try link("security: { curve: on }\n") == "ipc:///t/ribcity-x-windows")
        #expect(try link("endpoints: { transport: tcp, host: 10.0.0.1, base_port: 6000 }\n") == "tcp://10.0.0.1:6004")
        // Dispatch's packet link for the run's own hosts, beside its sessions endpoint: the same rule.
        func local(_ extra: String) throws -> String? {
            let topology = try TopologyReader.parse(base + extra, file: "t.yaml", directory: "/")
            return topology.localSessions(of: topology.endpoints.shardSessions(1, run: "x", temporaryDirectory: "/t")[0])
        }
        #expect(try local("") == "unix:///t/ribcity-x-dispatch.local")
        #expect(try local("security: { curve: on }\n") == nil)
        #expect(try local("endpoints: { transport: tcp, host: 10.0.0.1, base_port: 6000 }\n") == nil)
    }

    @Test("Missing pieces and broken YAML are errors too")
    func structuralErrors() {
        let cases: [(String, String)] = [
            ("drivers: {}\nriders: { demand: { synthetic: { peak_per_hour: 5 } } }", "bad.yaml:1: city: is required"),
            ("city: { grid: {}, osm: x.osm }\ndrivers: {}\nriders: {}", "bad.yaml:1: city: needs exactly one of osm"),
            ("city: { osm: nowhere.osm.pbf }\ndrivers: {}\nriders: {}", "city.osm: no file at nowhere.osm.pbf"),
            ("city: [1, 2\n", "bad.yaml:2: is not valid YAML"),
            ("", "bad.yaml: is empty"),
        ]
        for (text, expected) in cases {
            let error = #expect(throws: TopologyError.self) {
                try TopologyReader.parse(text, file: "bad.yaml", directory: "/tmp")
            }
            #expect(error?.description.contains(expected) == true, "\(String(describing: error)) should contain \(expected)")
        }
    }
}

@Suite("Shard plans: a topology's city split for dispatch shards by the demand it draws")
struct ShardPlanTests {
    @Test("Every ride and driver falls in one region; the shares add up; rides crossing a border are counted")
    func downtown() throws {
        let topology = try TopologyReader.read(path: topologies.appendingPathComponent("downtown.yaml").path)
        let prepared = try PreparedTopology(topology)
        let plan = ShardPlan(scenario: prepared.scenario, shards: 3)
        #expect(plan.regions.regions.count == 3)
        #expect(abs(plan.rideShare.reduce(0, +) - 1) < 1e-9 && abs(plan.driverShare.reduce(0, +) - 1) < 1e-9)
        #expect(plan.rideShare.allSatisfy { $0 > 0.15 }, "\(plan.rideShare)")
        let crossing = prepared.scenario.trips.filter {
            plan.regions.region(ofZone: plan.zones.zone(of: $0.origin))
                != plan.regions.region(ofZone: plan.zones.zone(of: $0.destination))
        }.count
        #expect(plan.crossingShare == Double(crossing) / Double(prepared.scenario.trips.count))
        #expect(ShardPlan(scenario: prepared.scenario, shards: 1).crossingShare == 0)
    }
}
