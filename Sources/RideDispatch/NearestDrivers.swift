/// Drivers on a grid over the city's plane, for "the `k` nearest by straight line" many times
/// over one pool (a matching round asks it for every waiting request): cells are searched in
/// rings outward from the target's, and the search stops once no unsearched cell can hold a
/// nearer driver. The answer is exactly a full scan's — nearest first, ties by driver id — at
/// the cost of the few cells around the target instead of the whole pool.
struct NearestDrivers {
    private let drivers: [PlacedDriver]
    private let points: [(x: Double, y: Double)]
    private let cellSize: Double
    private let minX: Double
    private let minY: Double
    private let columns: Int
    private let rows: Int
    /// Indices into `drivers`, by cell (row-major).
    private var cells: [[Int32]]
    private var index: [DriverID: Int32]
    private var taken: [Bool]
    private(set) var count: Int

    /// The pool `drivers`, placed by `position` (metres on a plane), in cells of `cellSize` metres.
    init(_ drivers: [PlacedDriver], position: (PlacedDriver) -> (x: Double, y: Double), cellSize: Double = 400) {
        precondition(cellSize > 0, "a positive cell size")
        self.drivers = drivers
        points = drivers.map(position)
        self.cellSize = cellSize
        minX = points.map(\.x).min() ?? 0
        minY = points.map(\.y).min() ?? 0
        columns = Int(((points.map(\.x).max() ?? 0) - minX) / cellSize) + 1
        rows = Int(((points.map(\.y).max() ?? 0) - minY) / cellSize) + 1
        cells = Array(repeating: [], count: columns * rows)
        index = Dictionary(minimumCapacity: drivers.count)
        taken = Array(repeating: false, count: drivers.count)
        count = drivers.count
        for (slot, point) in points.enumerated() {
            let place = cell(of: point)
            cells[place.row * columns + place.column].append(Int32(slot))
            index[drivers[slot].id] = Int32(slot)
        }
    }

    var isEmpty: Bool { count == 0 }

    /// Takes `id` out of the pool (once offered a ride); unknown ids change nothing.
    mutating func remove(_ id: DriverID) {
        guard let slot = index[id], !taken[Int(slot)] else { return }
        taken[Int(slot)] = true
        count -= 1
    }

    /// The drivers still in the pool and not in `excluded`, at most `limit`, nearest to `target`
    /// first (ties by driver id).
    func nearest(_ limit: Int, to target: (x: Double, y: Double), excluding excluded: Set<DriverID>) -> [PlacedDriver] {
        var nearest = NearestByLine(limit: limit, target: target)
        guard limit > 0, count > 0 else { return [] }
        let centre = cell(of: target)
        let widest = max(centre.column, columns - 1 - centre.column, centre.row, rows - 1 - centre.row)
        let excluding = !excluded.isEmpty
        for ring in 0...widest {
            // Every cell of this ring and beyond is at least (ring - 1) cells away from the target.
            if let farthest = nearest.farthestSquared, ring > 0 {
                let gap = Double(ring - 1) * cellSize
                if gap * gap > farthest { break }
            }
            for (column, row) in Self.ring(ring, around: centre) where column >= 0 && column < columns && row >= 0 && row < rows {
                for slot in cells[row * columns + column] where !taken[Int(slot)] {
                    let driver = drivers[Int(slot)]
                    if excluding && excluded.contains(driver.id) { continue }
                    nearest.consider(driver, at: points[Int(slot)])
                }
            }
        }
        return nearest.drivers
    }

    private func cell(of point: (x: Double, y: Double)) -> (column: Int, row: Int) {
        let column = min(columns - 1, max(0, Int(((point.x - minX) / cellSize).rounded(.down))))
        let row = min(rows - 1, max(0, Int(((point.y - minY) / cellSize).rounded(.down))))
        return (column, row)
    }

    /// The cells at Chebyshev distance `ring` from `centre`.
    private static func ring(_ ring: Int, around centre: (column: Int, row: Int)) -> [(Int, Int)] {
        guard ring > 0 else { return [(centre.column, centre.row)] }
        var cells: [(Int, Int)] = []
        for column in (centre.column - ring)...(centre.column + ring) {
            cells.append((column, centre.row - ring))
            cells.append((column, centre.row + ring))
        }
        for row in (centre.row - ring + 1)...(centre.row + ring - 1) {
            cells.append((centre.column - ring, row))
            cells.append((centre.column + ring, row))
        }
        return cells
    }
}

/// The `limit` nearest drivers seen so far to a target, by squared straight-line distance and
/// then driver id: the one ordering every nearest-driver search of dispatch uses.
struct NearestByLine {
    let limit: Int
    let target: (x: Double, y: Double)
    private var kept: [(squared: Double, driver: PlacedDriver)] = []

    init(limit: Int, target: (x: Double, y: Double)) {
        self.limit = limit
        self.target = target
    }

    /// The squared distance of the farthest kept driver, once `limit` are kept.
    var farthestSquared: Double? { kept.count == limit ? kept.last?.squared : nil }

    /// The drivers kept, nearest first.
    var drivers: [PlacedDriver] { kept.map(\.driver) }

    mutating func consider(_ driver: PlacedDriver, at point: (x: Double, y: Double)) {
        let squared = (point.x - target.x) * (point.x - target.x) + (point.y - target.y) * (point.y - target.y)
        if kept.count == limit, (squared, driver.id) >= (kept[limit - 1].squared, kept[limit - 1].driver.id) { return }
        let slot = kept.firstIndex { (squared, driver.id) < ($0.squared, $0.driver.id) } ?? kept.count
        kept.insert((squared, driver), at: slot)
        if kept.count > limit { kept.removeLast() }
    }
}
