/// The city split into regions for sharded dispatch (docs/ARCHITECTURE.md, "Sharded dispatch"):
/// rectangles of whole zones, balanced by expected demand, by recursive bisection — cut a
/// rectangle (across its longer side, unless the other balances better by more than 5 %) where
/// the demand on each side is in proportion to the shards each side gets, until every shard has one. Deterministic from the zones and the weights, so every
/// process that computes it from the same topology gets the same map and nobody has to be told
/// who owns what.
public struct DispatchRegions: Sendable, Equatable {
    /// A region: the zones of columns `columns` and rows `rows` of the zone grid.
    public struct Region: Sendable, Equatable {
        public let columns: Range<Int>
        public let rows: Range<Int>
        /// The expected demand in it (the sum of its zones' weights).
        public let weight: Double

        /// Whether two regions share a stretch of border (not only a corner).
        public func touches(_ other: Region) -> Bool {
            let sideBySide =
                (columns.upperBound == other.columns.lowerBound || other.columns.upperBound == columns.lowerBound)
                && rows.overlaps(other.rows)
            let aboveBelow =
                (rows.upperBound == other.rows.lowerBound || other.rows.upperBound == rows.lowerBound)
                && columns.overlaps(other.columns)
            return sideBySide || aboveBelow
        }
    }

    /// The regions, one per shard, in the order of the bisection (shard `i` owns `regions[i]`).
    public let regions: [Region]
    /// Each zone's region (its shard).
    public let regionOfZone: [Int]
    private let columns: Int

    /// Splits a grid of `columns` × `rows` zones, zone `z` at column `z % columns`, row
    /// `z / columns`, weighing `weights[z]`, into `count` regions.
    public init(columns: Int, rows: Int, weights: [Double], count: Int) {
        precondition(columns > 0 && rows > 0 && weights.count == columns * rows, "one weight per zone")
        precondition(count >= 1 && count <= columns * rows, "between one region and one per zone")
        precondition(weights.allSatisfy { $0 >= 0 && $0.isFinite }, "weights are demand: finite, not negative")
        self.columns = columns
        func weight(_ columnRange: Range<Int>, _ rowRange: Range<Int>) -> Double {
            var sum = 0.0
            for row in rowRange { for column in columnRange { sum += weights[row * columns + column] } }
            return sum
        }
        var regions: [Region] = []
        func split(_ columnRange: Range<Int>, _ rowRange: Range<Int>, into shards: Int) {
            guard shards > 1 else {
                regions.append(Region(columns: columnRange, rows: rowRange, weight: weight(columnRange, rowRange)))
                return
            }
            let first = shards / 2
            let share = Double(first) / Double(shards)
            let total = weight(columnRange, rowRange)
            // The best cut across one side: at least as many zones on each side as shards go there.
            func bestCut(alongColumns: Bool) -> (cut: Int, miss: Double)? {
                let side = alongColumns ? columnRange : rowRange
                let other = alongColumns ? rowRange.count : columnRange.count
                let least = (first + other - 1) / other
                let most = side.count - (shards - first + other - 1) / other
                var best: (cut: Int, miss: Double)?
                var before = 0.0
                for cut in side.lowerBound + 1..<side.upperBound {
                    before += alongColumns ? weight(cut - 1..<cut, rowRange) : weight(columnRange, cut - 1..<cut)
                    let cells = cut - side.lowerBound
                    guard cells >= least, cells <= most else { continue }
                    // Empty demand splits by area, so an empty city still gets even regions.
                    let miss = total > 0 ? abs(before - share * total) : abs(Double(cells) - share * Double(side.count))
                    if miss < best?.miss ?? .infinity { best = (cut, miss) }
                }
                return best
            }
            // Across the longer side (rounder regions, shorter borders to match across), unless the
            // other side balances the demand better by more than 5 % of it.
            let byColumns = bestCut(alongColumns: true)
            let byRows = bestCut(alongColumns: false)
            let longerIsColumns = columnRange.count >= rowRange.count
            let alongColumns: Bool
            switch (byColumns, byRows) {
            case (let columns?, let rows?):
                let slack = 0.05 * (total > 0 ? total : Double(columnRange.count * rowRange.count))
                alongColumns = longerIsColumns ? columns.miss <= rows.miss + slack : columns.miss + slack < rows.miss
            case (.some, nil): alongColumns = true
            default: alongColumns = false
            }
            guard let best = (alongColumns ? byColumns : byRows)?.cut else {
                preconditionFailure("\(shards) shards in \(columnRange.count * rowRange.count) zones")
            }
            if alongColumns {
                split(columnRange.lowerBound..<best, rowRange, into: first)
                split(best..<columnRange.upperBound, rowRange, into: shards - first)
            } else {
                split(columnRange, rowRange.lowerBound..<best, into: first)
                split(columnRange, best..<rowRange.upperBound, into: shards - first)
            }
        }
        split(0..<columns, 0..<rows, into: count)
        var regionOfZone = [Int](repeating: -1, count: columns * rows)
        for (index, region) in regions.enumerated() {
            for row in region.rows { for column in region.columns { regionOfZone[row * columns + column] = index } }
        }
        self.regions = regions
        self.regionOfZone = regionOfZone
        assert(regionOfZone.allSatisfy { $0 >= 0 }, "every zone in a region")
    }

    /// The region (shard) of zone `zone`.
    public func region(ofZone zone: Int) -> Int { regionOfZone[zone] }

    /// The other regions with a zone within `reach` zones of zone `zone` (Chebyshev distance on the
    /// grid): the neighbours worth asking for a driver for a pickup there, nearest first.
    public func regions(near zone: Int, within reach: Int) -> [Int] {
        let (column, row) = (zone % columns, zone / columns)
        let home = regionOfZone[zone]
        var distance: [Int: Int] = [:]
        for (index, region) in regions.enumerated() where index != home {
            let dx = max(0, region.columns.lowerBound - column, column - (region.columns.upperBound - 1))
            let dy = max(0, region.rows.lowerBound - row, row - (region.rows.upperBound - 1))
            let away = max(dx, dy)
            if away <= reach { distance[index] = away }
        }
        return distance.keys.sorted { (distance[$0]!, $0) < (distance[$1]!, $1) }
    }

    /// The regions that share a border with region `index`.
    public func neighbours(of index: Int) -> [Int] {
        regions.indices.filter { $0 != index && regions[$0].touches(regions[index]) }
    }
}
