import Foundation
import TestSupport
import Testing

@testable import City

@Suite("Contraction hierarchies: exact fast routing")
struct HierarchyTests {
    @Test("Travel times equal plain Dijkstra's for every pair of random one-way graphs", arguments: [1, 2, 3, 4])
    func equalsDijkstra(seed: UInt64) {
        let graph = CityTests.randomGraph(seed: seed, nodes: 70, edges: 260)
        let dijkstra = PathFinder(graph: graph)
        let hierarchy = HierarchyQuery(hierarchy: ContractionHierarchy(graph: graph))
        var reachable = 0
        for start in 0..<graph.nodeCount {
            for end in 0..<graph.nodeCount {
                let expected = dijkstra.travelTime(from: start, to: end)
                #expect(hierarchy.travelTime(from: start, to: end) == expected, "labels: \(start) → \(end)")
                #expect(hierarchy.searchedTravelTime(from: start, to: end) == expected, "search: \(start) → \(end)")
                if expected != nil { reachable += 1 }
            }
        }
        #expect(reachable > 2 * graph.nodeCount, "connected enough to test something")
    }

    @Test(
        "Whole tables equal plain Dijkstra's, unreachable pairs and repeats included", arguments: [5, 6, 7])
    func tablesEqualDijkstra(seed: UInt64) {
        let graph = CityTests.randomGraph(seed: seed, nodes: 80, edges: 240)
        let dijkstra = PathFinder(graph: graph)
        let query = HierarchyQuery(hierarchy: ContractionHierarchy(graph: graph))
        var random = SplitMix(seed: seed)
        let sources = (0..<25).map { _ in Int.random(in: 0..<graph.nodeCount, using: &random) } + [3, 3]
        let targets = (0..<30).map { _ in Int.random(in: 0..<graph.nodeCount, using: &random) } + [3]
        let table = query.travelTimes(from: sources, to: targets)
        var unreachable = 0
        for (i, source) in sources.enumerated() {
            for (j, target) in targets.enumerated() {
                let expected = dijkstra.travelTime(from: source, to: target)
                #expect(table[source: i, target: j] == expected, "\(source) → \(target)")
                #expect(table.travelTime(from: source, to: target) == expected)
                if expected == nil { unreachable += 1 }
            }
        }
        #expect(unreachable > 0, "some pairs cannot be reached, so the test sees nil answers too")
        #expect(query.travelTimes(from: [], to: targets).sources.isEmpty)
        #expect(query.travelTimes(from: sources, to: []).targets.isEmpty)
        // Searches after a table start from clean memory.
        #expect(
            query.searchedTravelTime(from: sources[0], to: targets[0]) == dijkstra.travelTime(from: sources[0], to: targets[0]))
    }

    @Test("Routes asked again come from memory and equal a fresh search's, unreachable pairs included", arguments: [8, 9])
    func rememberedRoutes(seed: UInt64) {
        let graph = CityTests.randomGraph(seed: seed, nodes: 60, edges: 180)
        let query = HierarchyQuery(hierarchy: ContractionHierarchy(graph: graph))
        let fresh = HierarchyQuery(hierarchy: query.hierarchy)
        var random = SplitMix(seed: seed)
        let pairs = (0..<40).map { _ in
            (Int.random(in: 0..<graph.nodeCount, using: &random), Int.random(in: 0..<graph.nodeCount, using: &random))
        }
        var unreachable = 0
        // Each pair three times, as a ride's quote, price and trip ask.
        for (start, end) in pairs + pairs.reversed() + pairs {
            let expected = fresh.searchedRoute(from: start, to: end)
            #expect(query.route(from: start, to: end) == expected, "\(start) → \(end)")
            if expected == nil { unreachable += 1 }
        }
        #expect(unreachable > 0, "some pairs cannot be reached, so remembered nil answers are tested too")
    }

    @Test("The route memory asks for each route once while it is held, keeps two generations, and forgets the one before")
    func routeMemoGenerations() {
        var memo = GenerationalMemory<[Int], Route?>(capacity: 3)
        var found: [String] = []
        func ask(_ start: Int, _ end: Int) -> Route? {
            memo.answer([start, end]) { pair in
                found.append("\(pair[0])-\(pair[1])")
                return pair[1] == 0 ? nil : Route(time: Double(pair[0] * 100 + pair[1]), length: 1, nodes: pair)
            }
        }
        #expect(ask(1, 2)?.time == 102)
        #expect(ask(1, 2)?.time == 102)
        #expect(ask(4, 0) == nil)
        #expect(ask(4, 0) == nil, "no route is remembered too")
        _ = ask(3, 4)  // the newer generation is full: it becomes the older
        #expect(found == ["1-2", "4-0", "3-4"])
        _ = ask(5, 6)
        #expect(ask(1, 2)?.time == 102, "from the older generation")
        _ = ask(7, 8)  // full again: (4, 0) and (3, 4) are forgotten, (1, 2) was brought along
        _ = ask(9, 10)
        #expect(ask(1, 2)?.time == 102)
        #expect(ask(3, 4)?.time == 304)
        #expect(found == ["1-2", "4-0", "3-4", "5-6", "7-8", "9-10", "3-4"])
    }

    @Test("A scaled router's tables equal its own point answers, the leg time included")
    func scaledTables() {
        let graph = CityTests.randomGraph(seed: 11, nodes: 60, edges: 220)
        let scaled = ScaledPlanner(HierarchyQuery(hierarchy: ContractionHierarchy(graph: graph)), scale: 1.37, legSeconds: 21)
        let nodes = Array(stride(from: 0, to: 60, by: 4))
        let table = scaled.travelTimes(from: nodes, to: nodes)
        for (i, a) in nodes.enumerated() {
            for (j, b) in nodes.enumerated() { #expect(table[source: i, target: j] == scaled.travelTime(from: a, to: b)) }
        }
        #expect(table.travelTime(from: 0, to: 0) == 0, "standing still takes no leg time")
    }

    @Test("Unpacked routes are real paths whose segments add up to the travel time")
    func routesUnpack() throws {
        let graph = CityTests.randomGraph(seed: 9, nodes: 90, edges: 420)
        let dijkstra = PathFinder(graph: graph)
        let query = HierarchyQuery(hierarchy: ContractionHierarchy(graph: graph))
        var checked = 0
        for start in stride(from: 0, to: 90, by: 5) {
            for end in stride(from: 2, to: 90, by: 7) {
                guard let route = query.route(from: start, to: end) else {
                    #expect(dijkstra.route(from: start, to: end) == nil)
                    continue
                }
                #expect(route.nodes.first == start && route.nodes.last == end)
                var millis: UInt32 = 0
                var metres = 0.0
                for (a, b) in zip(route.nodes, route.nodes.dropFirst()) {
                    let edge = try #require(graph.fastestEdge(from: a, to: b), "\(a) → \(b) is a road segment")
                    millis += graph.edgeMillis[edge]
                    metres += Double(graph.edgeLength[edge])
                }
                #expect(Double(millis) / 1000 == route.time)
                #expect(abs(metres - route.length) < 1e-6 * max(1, metres))
                // Another equally fast path may be longer or shorter, so only the time is Dijkstra's.
                #expect(route.time == dijkstra.route(from: start, to: end)?.time)
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    @Test("The SUMO grid: corner to corner in 720 s, start equal to end in 0 s")
    func grid() throws {
        let city = CityTests.sumoGrid
        let query = HierarchyQuery(hierarchy: ContractionHierarchy(graph: city.build()))
        let corner = try #require(query.route(from: city.node(x: 0, y: 0), to: city.node(x: 20, y: 20)))
        #expect(abs(corner.time - 720) < 0.01)
        #expect(corner.nodes.count == 41)
        #expect(query.travelTime(from: 5, to: 5) == 0)
    }

    @Test(
        "On the real Manhattan extract, 300 random pairs equal plain Dijkstra's",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedData.appendingPathComponent("manhattan-south-roads.osm.gz").path)))
    func manhattan() throws {
        let path = sharedData.appendingPathComponent("manhattan-south-roads.osm.gz").path
        let graph = try RoadNetworkImport(OSMXMLReader.read(path: path), file: "manhattan-south-roads.osm.gz").graph
        let dijkstra = PathFinder(graph: graph)
        let query = HierarchyQuery(hierarchy: ContractionHierarchy(graph: graph))
        var random = SplitMix(seed: 3)
        for _ in 0..<300 {
            let start = Int.random(in: 0..<graph.nodeCount, using: &random)
            let end = Int.random(in: 0..<graph.nodeCount, using: &random)
            let expected = dijkstra.travelTime(from: start, to: end)
            #expect(expected != nil, "the kept network is strongly connected")
            #expect(query.travelTime(from: start, to: end) == expected, "\(start) → \(end)")
            #expect(query.searchedTravelTime(from: start, to: end) == expected, "\(start) → \(end)")
        }
    }
}

@Suite("A vehicle following a route")
struct RouteTimelineTests {
    @Test("Position at any time: start before departure, interpolated between nodes, end after arrival")
    func positions() throws {
        let city = CityTests.sumoGrid
        let graph = city.build()
        let route = try #require(PathFinder(graph: graph).route(from: city.node(x: 0, y: 0), to: city.node(x: 2, y: 0)))
        let timeline = RouteTimeline(route: route, departure: 100, graph: graph)
        let block = 250 / (50 / 3.6)
        #expect(abs(timeline.arrival - (100 + 2 * block)) < 0.01)
        #expect(timeline.position(at: 50) == graph.positions[city.node(x: 0, y: 0)])
        #expect(timeline.position(at: 10_000) == graph.positions[city.node(x: 2, y: 0)])
        let halfway = timeline.position(at: 100 + block / 2)
        let a = graph.positions[city.node(x: 0, y: 0)], b = graph.positions[city.node(x: 1, y: 0)]
        #expect(abs(halfway.distance(to: a) - 125) < 0.5 && abs(halfway.distance(to: b) - 125) < 0.5)
        #expect(timeline.lastNodeIndex(at: 100 + block * 1.5) == 1)
        let next = timeline.nextNode(at: 100 + block * 1.5)
        #expect(next.node == city.node(x: 2, y: 0) && abs(next.time - timeline.arrival) < 0.01)
        #expect(timeline.nextNode(at: 100).node == city.node(x: 0, y: 0))
    }
}
