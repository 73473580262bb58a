import City
import RideDispatch
import Testing

@testable import DispatchService

@Suite("Choosing across a border: whom to ask, and only when it saves enough")
struct BorderChoiceTests {
    let a = DriverID(1), b = DriverID(2), c = DriverID(3)

    @Test("The soonest neighbour's driver, when nobody is at home or it saves the margin; a near tie stays home")
    func choice() {
        let across = [
            BorderChoice.Candidate(shard: 2, driver: b, seconds: 90), BorderChoice.Candidate(shard: 1, driver: a, seconds: 60),
            BorderChoice.Candidate(shard: 3, driver: c, seconds: 60),
        ]
        #expect(BorderChoice.choose(home: nil, across: across, margin: 30) == across[1], "ties by shard")
        #expect(BorderChoice.choose(home: 90, across: across, margin: 30) == across[1])
        #expect(BorderChoice.choose(home: 89, across: across, margin: 30) == nil)
        #expect(BorderChoice.choose(home: nil, across: [], margin: 30) == nil)
    }

    @Test("A neighbour's answer comes from its engine: idle drivers only, held and offered ones left out, fastest first")
    func nearestIdle() throws {
        let grid = GridCity(width: 2_000, height: 2_000, blockLength: 250, speedKmh: 36)
        var configuration = DispatchConfiguration()
        configuration.strategy = .greedy(interval: 60)
        let engine = DispatchEngine(planner: PathFinder(graph: grid.build()), configuration: configuration)
        try engine.driverOnline(a, at: grid.node(x: 0, y: 0), now: 0)
        try engine.driverOnline(b, at: grid.node(x: 2, y: 0), now: 0)
        try engine.driverOnline(c, at: grid.node(x: 8, y: 8), now: 0)
        let answer = engine.nearestIdle(to: grid.node(x: 3, y: 0), limit: 2, now: 1)
        #expect(answer.map(\.driver) == [b, a] && answer[0].seconds == 25)
        try engine.hold(b, for: "s1-1", now: 2)
        #expect(engine.nearestIdle(to: grid.node(x: 3, y: 0), limit: 2, now: 3).map(\.driver) == [a, c])
        #expect(engine.nearestIdle(to: -1, limit: 2, now: 3).isEmpty, "a node off the map has no candidates")
    }

    @Test("Neighbours worth asking: the other regions within reach of the pickup's zone, nearest first")
    func near() {
        let regions = DispatchRegions(columns: 8, rows: 4, weights: Array(repeating: 1, count: 32), count: 4)
        // Four strips of two columns each; zone 3 (column 3, row 0) is in the second.
        #expect(regions.regions.map(\.columns) == [0..<2, 2..<4, 4..<6, 6..<8])
        let zone = 3
        let home = regions.region(ofZone: zone)
        #expect(home == 1)
        #expect(regions.regions(near: zone, within: 0).isEmpty, "within its own zone only home")
        #expect(regions.regions(near: zone, within: 1) == [2])
        #expect(regions.regions(near: zone, within: 2) == [2, 0], "nearest first")
        #expect(Set(regions.regions(near: zone, within: 8)) == Set((0..<4).filter { $0 != home }))
    }
}
