import City
import TestSupport
import Testing

@testable import RideDispatch

extension DispatchEngine {
    /// Every available driver where they can start from, found by scanning every record: what the
    /// engine's index must agree with.
    fileprivate func availablePlaced() -> [PlacedDriver] {
        drivers.values.compactMap { $0.isAvailable ? $0.placed(at: now) : nil }
    }
}

@Suite("Nearest drivers by straight line on a grid")
struct DriverGridTests {
    @Test(
        "The same drivers in the same order as a full scan while drivers come, move and go, targets on and off the grid",
        arguments: [1, 2, 3])
    func equalsFullScan(seed: UInt64) {
        var random = SplitMix(seed: seed)
        // Node positions on a 6 × 4 km plane, a few shared so that ties by id matter.
        var points: [(x: Double, y: Double)] = []
        for index in 0..<400 {
            if index % 9 == 4, let earlier = points.last {
                points.append(earlier)
            } else {
                points.append((Double.random(in: 0..<6_000, using: &random), Double.random(in: 0..<4_000, using: &random)))
            }
        }
        var grid = DriverGrid(covering: points, cellSize: 350)
        var standing: [DriverID: Int] = [:]
        for step in 0..<600 {
            let id = DriverID(Int.random(in: 0..<300, using: &random))
            if Int.random(in: 0..<4, using: &random) == 0 {
                grid.remove(id)
                standing[id] = nil
            } else {
                let node = Int.random(in: 0..<points.count, using: &random)
                grid.place(id, node: node, at: points[node])
                standing[id] = node
            }
            guard step % 3 == 0 else { continue }
            let target = (
                x: Double.random(in: -2_000..<8_000, using: &random), y: Double.random(in: -2_000..<6_000, using: &random)
            )
            let excluded = Set(
                (0..<Int.random(in: 0..<3, using: &random)).map { _ in DriverID(Int.random(in: 0..<300, using: &random)) })
            let limit = [1, 8, 16, 500][step % 4]
            var scan = NearestByLine<DriverID>(limit: limit, target: target, excluding: excluded)
            for (id, node) in standing { scan.consider(id, id: id, at: points[node]) }
            var searched = NearestByLine<DriverID>(limit: limit, target: target, excluding: excluded)
            grid.search(into: &searched) { points[$0] }
            #expect(searched.items == scan.items, "step \(step)")
        }
        #expect(grid.count == standing.count && standing.count > 50)
    }

    @Test("Drivers and targets on the cells' edges and corners, ties everywhere: still a full scan's answer")
    func edgesAndTies() {
        // Every point on a 100 m lattice over cells of 300 m: a third of them on a cell's edge,
        // and many drivers at exactly the distance a ring's bound is compared with.
        var points: [(x: Double, y: Double)] = []
        for x in stride(from: 0.0, through: 2_400, by: 100) {
            for y in stride(from: 0.0, through: 1_800, by: 100) { points.append((x, y)) }
        }
        var grid = DriverGrid(covering: points, cellSize: 300)
        var standing: [DriverID: Int] = [:]
        for (index, node) in stride(from: 0, to: points.count, by: 7).enumerated() {
            grid.place(DriverID(index), node: node, at: points[node])
            standing[DriverID(index)] = node
        }
        var compared = 0
        for target in points + [(x: -300, y: 900), (x: 2_700, y: 2_100), (x: 1_200, y: -600)] {
            for limit in [1, 4, 9, 40, standing.count + 1] {
                var scan = NearestByLine<DriverID>(limit: limit, target: target)
                for (id, node) in standing { scan.consider(id, id: id, at: points[node]) }
                var searched = NearestByLine<DriverID>(limit: limit, target: target)
                grid.search(into: &searched) { points[$0] }
                #expect(searched.items == scan.items, "near \(target), \(limit) kept")
                compared += 1
            }
        }
        #expect(compared == (points.count + 3) * 5 && standing.count > 60)
    }

    @Test("An engine's index of available drivers gives what scanning every record gives, through a busy hour")
    func engineIndexEqualsScan() throws {
        let city = GridCity(width: 3_000, height: 3_000, blockLength: 250, speedKmh: 40)
        var configuration = DispatchConfiguration()
        configuration.rebalancing = .towardUnmetDemand(interval: 120, maxMoves: 10)
        let engine = DispatchEngine(planner: PathFinder(graph: city.build()), configuration: configuration)
        var random = SplitMix(seed: 5)
        let nodes = engine.graph.nodeCount
        for index in 0..<40 { try engine.driverOnline(DriverID(index), at: Int.random(in: 0..<nodes, using: &random), now: 0) }
        var checked = 0
        var sawMoving = false
        for second in stride(from: 1.0, to: 3_600, by: 30) {
            let request = RideRequest(
                id: RequestID(Int(second)), rider: Int(second), origin: Int.random(in: 0..<nodes, using: &random),
                destination: Int.random(in: 0..<nodes, using: &random))
            try? engine.submit(request, now: second)
            engine.advance(to: second + 15)
            for (driver, state) in engine.drivers.map({ ($0.key, $0.value.offer) }) where state != nil {
                try? engine.respond(driver: driver, to: state!.request, accept: true, now: second + 15)
            }
            sawMoving = sawMoving || !engine.movingAvailable.isEmpty
            for target in stride(from: 0, to: nodes, by: 17) {
                let scanned = engine.nearestByLine(engine.availablePlaced(), to: target, excluding: [], limit: 8)
                let indexed = engine.nearestAvailableByLine(to: target, excluding: [], limit: 8)
                #expect(
                    indexed.map(\.id) == scanned.map(\.id) && indexed.map(\.node) == scanned.map(\.node),
                    "at \(second) s near \(target)")
                checked += 1
            }
        }
        #expect(checked > 1_000)
        #expect(sawMoving, "some available drivers were on the move (rebalancing), so both halves of the index were asked")
        #expect(engine.brokenInvariant() == nil)
    }
}
