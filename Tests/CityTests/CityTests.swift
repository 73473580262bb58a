import TestSupport
import Testing

@testable import City

@Suite("Road graph, grid city, fastest paths and snapping")
struct CityTests {
    static let sumoGrid = GridCity(width: 5_000, height: 5_000, blockLength: 250, speedKmh: 50)

    @Test("The SUMO reference grid: 21 × 21 intersections, two-way streets, 50 km/h")
    func grid() throws {
        let city = Self.sumoGrid
        let graph = city.build()
        #expect(graph.nodeCount == 441)
        #expect(graph.edgeCount == 2 * 2 * 20 * 21)
        let finder = PathFinder(graph: graph)
        let corner = try #require(finder.route(from: city.node(x: 0, y: 0), to: city.node(x: 20, y: 20)))
        #expect(abs(corner.time - 10_000 / (50 / 3.6)) < 0.01)
        #expect(abs(corner.length - 10_000) < 0.01)
        #expect(corner.nodes.count == 41)
        #expect(corner.nodes.first == 0 && corner.nodes.last == city.node(x: 20, y: 20))
        let side = graph.positions[city.node(x: 0, y: 0)].distance(to: graph.positions[city.node(x: 20, y: 0)])
        #expect(abs(side - 5_000) < 5, "the projection keeps distances within 0.1 %")
    }

    /// Why `decode` refused a file of the city's own, or "accepted".
    static func refusal<T>(_ decode: () throws(PackedFileFailure) -> T) -> String {
        do {
            _ = try decode()
            return "accepted"
        } catch {
            return error.description
        }
    }

    /// What every file of the city's own refuses (`PackedFile`'s header and seal), each with its
    /// reason: `bytes` torn, a payload byte flipped, something else altogether, nothing. `reason`
    /// decodes bytes of the kind `kind` names.
    static func expectSealed(_ bytes: [UInt8], kind: String, reason: ([UInt8]) -> String) {
        #expect(reason(Array(bytes.dropLast(3))).hasPrefix("torn"))
        var flipped = bytes
        flipped[bytes.count - 5] ^= 0x40
        #expect(reason(flipped) == "its checksum does not match")
        #expect(reason(Array("not a file of ours".utf8)).hasPrefix("not \(kind)"))
        #expect(reason([]).hasPrefix("not \(kind)"))
    }

    /// A seeded random graph with one-way streets, for comparing against brute force.
    static func randomGraph(seed: UInt64, nodes: Int, edges: Int) -> RoadGraph {
        var random = SplitMix(seed: seed)
        var builder = RoadGraphBuilder()
        for _ in 0..<nodes {
            builder.addNode(
                GeoPoint(
                    lat: 40.70 + Double.random(in: 0..<0.05, using: &random),
                    lon: -74.02 + Double.random(in: 0..<0.05, using: &random)))
        }
        for _ in 0..<edges {
            let a = Int.random(in: 0..<nodes, using: &random)
            let b = Int.random(in: 0..<nodes, using: &random)
            guard a != b else { continue }
            builder.addEdge(from: a, to: b, speed: Double.random(in: 5...20, using: &random))
        }
        return builder.build()
    }

    @Test("Travel times equal Floyd–Warshall's on random one-way graphs", arguments: [1, 2, 3])
    func dijkstraMatchesBruteForce(seed: UInt64) {
        let graph = Self.randomGraph(seed: seed, nodes: 60, edges: 180)
        let n = graph.nodeCount
        var best = [[Double]](repeating: [Double](repeating: .infinity, count: n), count: n)
        for node in 0..<n {
            best[node][node] = 0
            for edge in graph.edges(from: node) {
                let target = Int(graph.edgeTarget[edge])
                best[node][target] = min(best[node][target], Double(graph.edgeTime[edge]))
            }
        }
        for k in 0..<n {
            for i in 0..<n {
                for j in 0..<n where best[i][k] + best[k][j] < best[i][j] {
                    best[i][j] = best[i][k] + best[k][j]
                }
            }
        }
        let finder = PathFinder(graph: graph)
        var reachable = 0
        for i in 0..<n {
            for j in 0..<n {
                let found = finder.travelTime(from: i, to: j)
                if best[i][j] == .infinity {
                    #expect(found == nil)
                } else {
                    reachable += 1
                    #expect(abs((found ?? -1) - best[i][j]) < 1e-3 * max(1, best[i][j]))
                }
            }
        }
        #expect(reachable > n, "the graph is connected enough to test something")
    }

    @Test("A route's edges add up to its time and length")
    func routeConsistency() throws {
        let graph = Self.randomGraph(seed: 7, nodes: 80, edges: 400)
        let finder = PathFinder(graph: graph)
        var checked = 0
        for start in stride(from: 0, to: 80, by: 7) {
            for end in stride(from: 3, to: 80, by: 11) {
                guard let route = finder.route(from: start, to: end) else { continue }
                var time = 0.0
                for (a, b) in zip(route.nodes, route.nodes.dropFirst()) {
                    let edge = try #require(
                        graph.edges(from: a).filter { Int(graph.edgeTarget[$0]) == b }
                            .min { graph.edgeTime[$0] < graph.edgeTime[$1] })
                    time += Double(graph.edgeTime[edge])
                }
                #expect(abs(time - route.time) < 1e-2)
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test("Snapping finds the same nearest road point as a scan of every edge", arguments: [100.0, 400.0])
    func snapMatchesScan(cellSize: Double) {
        let graph = Self.randomGraph(seed: 11, nodes: 120, edges: 300)
        let index = SnapIndex(graph: graph, cellSize: cellSize)
        let projection = LocalProjection(origin: graph.positions[0])
        var random = SplitMix(seed: 5)
        for _ in 0..<300 {
            // Inside the network's area and well outside it.
            let position = GeoPoint(
                lat: 40.68 + Double.random(in: 0..<0.09, using: &random),
                lon: -74.04 + Double.random(in: 0..<0.09, using: &random))
            let p = projection.project(position)
            var scan = Double.infinity
            for source in 0..<graph.nodeCount {
                for edge in graph.edges(from: source) {
                    let a = projection.project(graph.positions[source])
                    let b = projection.project(graph.positions[Int(graph.edgeTarget[edge])])
                    let dx = b.x - a.x, dy = b.y - a.y
                    let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
                    let ex = a.x + dx * t - p.x, ey = a.y + dy * t - p.y
                    scan = min(scan, (ex * ex + ey * ey).squareRoot())
                }
            }
            let snap = index.snap(position)
            #expect(abs(snap.distance - scan) < 1e-6)
            // The planar projection agrees with great-circle distance to within 0.1 %.
            #expect(abs(snap.point.distance(to: position) - snap.distance) < 0.5 + 0.001 * snap.distance)
        }
    }

    @Test(
        "A snap within a limit is the unbounded snap when that is within the limit, and nothing otherwise",
        arguments: [(100.0, 50.0), (200.0, 250.0), (400.0, 1_000.0)])
    func boundedSnap(cellSize: Double, limit: Double) {
        let graph = Self.randomGraph(seed: 12, nodes: 150, edges: 320)
        let index = SnapIndex(graph: graph, cellSize: cellSize)
        var random = SplitMix(seed: 9)
        var near = 0
        var far = 0
        for _ in 0..<500 {
            let position = GeoPoint(
                lat: 40.66 + Double.random(in: 0..<0.13, using: &random),
                lon: -74.06 + Double.random(in: 0..<0.13, using: &random))
            let unbounded = index.snap(position)
            let bounded = index.snap(position, within: limit)
            if unbounded.distance <= limit {
                near += 1
                #expect(bounded == unbounded, "the same edge, fraction and point")
                #expect(index.nearestNode(to: position, within: limit)! == index.nearestNode(to: position))
            } else {
                far += 1
                #expect(bounded == nil)
                #expect(index.nearestNode(to: position, within: limit) == nil)
            }
        }
        #expect(near > 20 && far > 20, "both kinds of position were tried (\(near) near, \(far) far)")
    }

    @Test("A position on a street snaps onto that street")
    func snapOnGrid() {
        let city = GridCity(width: 1_000, height: 1_000, blockLength: 250, speedKmh: 30)
        let graph = city.build()
        let index = SnapIndex(graph: graph)
        let projection = LocalProjection(origin: city.origin)
        let snap = index.snap(projection.unproject(x: 100, y: 253))  // 3 m north of the first street
        #expect(abs(snap.distance - 3) < 0.01)
        let source = graph.source(of: snap.edge)
        let target = Int(graph.edgeTarget[snap.edge])
        #expect(Set([source, target]) == Set([city.node(x: 0, y: 1), city.node(x: 1, y: 1)]))
    }
}
