import TestSupport
import Testing

@testable import RideDispatch

@Suite("Nearest drivers by straight line on a grid")
struct NearestDriversTests {
    /// Drivers at random points of a 6 × 4 km plane (node number = driver number), some on the
    /// same spot so that ties by id matter.
    static func pool(seed: UInt64, count: Int) -> (drivers: [PlacedDriver], points: [(x: Double, y: Double)]) {
        var random = SplitMix(seed: seed)
        var points: [(x: Double, y: Double)] = []
        for index in 0..<count {
            if index % 7 == 3, let earlier = points.last {
                points.append(earlier)
            } else {
                points.append((Double.random(in: 0..<6_000, using: &random), Double.random(in: 0..<4_000, using: &random)))
            }
        }
        return ((0..<count).map { PlacedDriver(id: DriverID($0), node: $0, time: 0) }, points)
    }

    @Test(
        "The same drivers in the same order as scanning them all: targets inside and outside, exclusions, removals",
        arguments: [1, 2, 3])
    func equalsFullScan(seed: UInt64) {
        let (drivers, points) = Self.pool(seed: seed, count: 600)
        var grid = NearestDrivers(drivers, position: { points[$0.node] }, cellSize: 350)
        var remaining = drivers
        var random = SplitMix(seed: seed + 100)
        for round in 0..<200 {
            let target = (
                x: Double.random(in: -2_000..<8_000, using: &random), y: Double.random(in: -2_000..<6_000, using: &random)
            )
            let excluded = Set(
                (0..<Int.random(in: 0..<4, using: &random)).map { _ in DriverID(Int.random(in: 0..<600, using: &random)) })
            let limit = [1, 8, 16, 700][round % 4]
            var scan = NearestByLine(limit: limit, target: target)
            for driver in remaining where !excluded.contains(driver.id) { scan.consider(driver, at: points[driver.node]) }
            #expect(grid.nearest(limit, to: target, excluding: excluded).map(\.id) == scan.drivers.map(\.id), "round \(round)")
            if round % 3 == 0, let first = scan.drivers.first {
                grid.remove(first.id)
                remaining.removeAll { $0.id == first.id }
            }
        }
        #expect(grid.count == remaining.count)
        #expect(remaining.count < 600, "removals were exercised")
    }

    @Test("An empty pool, a one-driver pool and a removed-twice driver")
    func edges() {
        let empty = NearestDrivers([], position: { _ in (0, 0) })
        #expect(empty.isEmpty && empty.nearest(8, to: (5, 5), excluding: []).isEmpty)
        var one = NearestDrivers([PlacedDriver(id: DriverID(4), node: 0, time: 0)], position: { _ in (100, 100) })
        #expect(one.nearest(8, to: (-5_000, 9_000), excluding: []).map(\.id) == [DriverID(4)])
        #expect(one.nearest(8, to: (0, 0), excluding: [DriverID(4)]).isEmpty)
        one.remove(DriverID(4))
        one.remove(DriverID(4))
        one.remove(DriverID(9))
        #expect(one.isEmpty && one.count == 0)
    }
}
