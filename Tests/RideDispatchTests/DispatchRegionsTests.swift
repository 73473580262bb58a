import Testing

@testable import RideDispatch

@Suite("Dispatch regions: the city split for shards, balanced by expected demand")
struct DispatchRegionsTests {
    @Test("One shard owns the whole city")
    func one() {
        let regions = DispatchRegions(columns: 5, rows: 3, weights: Array(repeating: 1, count: 15), count: 1)
        #expect(regions.regions.count == 1 && regions.regionOfZone.allSatisfy { $0 == 0 })
        #expect(regions.regions[0].weight == 15 && regions.neighbours(of: 0).isEmpty)
    }

    @Test("Even demand: equal regions, each zone in exactly one, neighbours both ways", arguments: [2, 4, 8])
    func even(count: Int) {
        let regions = DispatchRegions(columns: 8, rows: 4, weights: Array(repeating: 1, count: 32), count: count)
        #expect(regions.regions.count == count)
        #expect(regions.regions.allSatisfy { $0.weight == Double(32 / count) }, "\(regions.regions)")
        for (zone, region) in regions.regionOfZone.enumerated() {
            let owner = regions.regions[region]
            #expect(owner.columns.contains(zone % 8) && owner.rows.contains(zone / 8))
        }
        #expect(regions.regions.map { $0.columns.count * $0.rows.count }.reduce(0, +) == 32)
        for index in regions.regions.indices {
            for neighbour in regions.neighbours(of: index) { #expect(regions.neighbours(of: neighbour).contains(index)) }
            if count > 1 { #expect(!regions.neighbours(of: index).isEmpty) }
        }
    }

    @Test("Skewed demand: the busy side gets smaller regions, each within one zone's demand of its share")
    func skewed() {
        // Demand falls off from the west: column c weighs 16 − c per zone.
        let weights = (0..<64).map { Double(16 - $0 % 16) }
        let regions = DispatchRegions(columns: 16, rows: 4, weights: weights, count: 4)
        let total = weights.reduce(0, +)
        for region in regions.regions {
            #expect(abs(region.weight - total / 4) <= 16 * 4, "\(regions.regions)")
        }
        #expect(regions.regions[0].columns.count < regions.regions[3].columns.count, "the west is busier")
    }

    @Test("Three shards: a third of the demand each, as near as whole zones allow")
    func three() {
        let regions = DispatchRegions(columns: 9, rows: 9, weights: Array(repeating: 1, count: 81), count: 3)
        #expect(regions.regions.map(\.weight).sorted() == [27, 27, 27])
    }

    @Test("No demand at all: regions split by area; the same input gives the same map")
    func emptyAndDeterministic() {
        let empty = DispatchRegions(columns: 6, rows: 2, weights: Array(repeating: 0, count: 12), count: 2)
        #expect(empty.regions.map { $0.columns.count * $0.rows.count } == [6, 6])
        let weights = (0..<40).map { Double(($0 * 7919) % 13) }
        #expect(
            DispatchRegions(columns: 8, rows: 5, weights: weights, count: 5)
                == DispatchRegions(columns: 8, rows: 5, weights: weights, count: 5))
    }

    @Test("A region as thin as one zone: shards never get an empty region", arguments: [1, 2, 3, 4, 5, 6, 7])
    func thin(count: Int) {
        let regions = DispatchRegions(columns: 1, rows: 7, weights: [50, 0, 0, 0, 0, 0, 1], count: count)
        #expect(regions.regions.count == count)
        #expect(regions.regions.allSatisfy { !$0.rows.isEmpty && !$0.columns.isEmpty })
    }
}
