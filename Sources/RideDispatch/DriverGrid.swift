/// Drivers on a grid of cells over the city's plane, kept up to date as they come and go, for
/// "the nearest by straight line" asked for every quote and every waiting request: cells are
/// searched in rings outward from the target's, and the search stops once no unsearched cell can
/// hold a nearer driver. The answer is exactly a full scan's (see ``NearestByLine``) at the cost
/// of the few cells around the target instead of every driver.
struct DriverGrid: Codable {
    private let cellSize: Double
    private let minX: Double
    private let minY: Double
    private let columns: Int
    private let rows: Int
    /// The drivers in each cell (row-major), with the node each stands at.
    private var cells: [[Placed]]
    private var cellOf: [DriverID: Int] = [:]

    /// A grid covering `points` (metres on a plane; drivers may stand anywhere, the bounds only
    /// size the grid) in cells of `cellSize` metres.
    init(covering points: [(x: Double, y: Double)], cellSize: Double = 400) {
        precondition(cellSize > 0, "a positive cell size")
        self.cellSize = cellSize
        minX = points.map(\.x).min() ?? 0
        minY = points.map(\.y).min() ?? 0
        columns = Int(((points.map(\.x).max() ?? 0) - minX) / cellSize) + 1
        rows = Int(((points.map(\.y).max() ?? 0) - minY) / cellSize) + 1
        cells = Array(repeating: [], count: columns * rows)
    }

    /// A driver on the grid and the node it stands at.
    struct Placed: Codable {
        let id: DriverID
        var node: Int
    }

    /// How many drivers are on the grid.
    var count: Int { cellOf.count }

    /// Puts `id` at `node`, whose position is `point` (moving it if it is on the grid already).
    mutating func place(_ id: DriverID, node: Int, at point: (x: Double, y: Double)) {
        let cell = index(of: point)
        if let current = cellOf[id] {
            if current == cell, let slot = cells[cell].firstIndex(where: { $0.id == id }) {
                cells[cell][slot].node = node
                return
            }
            remove(id)
        }
        cells[cell].append(Placed(id: id, node: node))
        cellOf[id] = cell
    }

    /// Takes `id` off the grid; an id not on it changes nothing.
    mutating func remove(_ id: DriverID) {
        guard let cell = cellOf.removeValue(forKey: id) else { return }
        cells[cell].removeAll { $0.id == id }
    }

    /// Offers `nearest` every driver of the grid that could be among its `limit` nearest to its
    /// target (`position` places a node): ring by ring, until the ring's cells are farther than
    /// the farthest driver it keeps.
    func search(into nearest: inout NearestByLine<DriverID>, position: (Int) -> (x: Double, y: Double)) {
        guard !cellOf.isEmpty else { return }
        let centre = cell(of: nearest.target)
        let widest = max(centre.column, columns - 1 - centre.column, centre.row, rows - 1 - centre.row)
        for ring in 0...widest {
            // Every cell of this ring and beyond is at least (ring - 1) cells away from the target
            // (a target off the grid is only farther from the cells beyond its edge).
            if ring > 0, let farthest = nearest.farthestSquared {
                let gap = Double(ring - 1) * cellSize
                if gap * gap > farthest { return }
            }
            for (column, row) in Self.ring(ring, around: centre) where column >= 0 && column < columns && row >= 0 && row < rows {
                for driver in cells[row * columns + column] {
                    nearest.consider(driver.id, id: driver.id, at: position(driver.node))
                }
            }
        }
    }

    private func index(of point: (x: Double, y: Double)) -> Int {
        let place = cell(of: point)
        return place.row * columns + place.column
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

/// The `limit` nearest drivers offered so far to a target, by squared straight-line distance and
/// then driver id: the one ordering every nearest-driver search of dispatch uses, whichever way
/// the drivers are offered. Keeps an `Item` per driver (what the caller needs back).
struct NearestByLine<Item> {
    let limit: Int
    let target: (x: Double, y: Double)
    let excluded: Set<DriverID>
    private var kept: [(squared: Double, id: DriverID, item: Item)] = []

    init(limit: Int, target: (x: Double, y: Double), excluding excluded: Set<DriverID> = []) {
        self.limit = limit
        self.target = target
        self.excluded = excluded
    }

    /// The squared distance of the farthest kept driver, once `limit` are kept.
    var farthestSquared: Double? { kept.count == limit ? kept.last?.squared : nil }

    /// What was kept, nearest first.
    var items: [Item] { kept.map(\.item) }

    mutating func consider(_ item: Item, id: DriverID, at point: (x: Double, y: Double)) {
        guard limit > 0 else { return }
        let squared = (point.x - target.x) * (point.x - target.x) + (point.y - target.y) * (point.y - target.y)
        if kept.count == limit, (squared, id) >= (kept[limit - 1].squared, kept[limit - 1].id) { return }
        // Most searches exclude nobody: the set is asked only about drivers that would be kept.
        if !excluded.isEmpty, excluded.contains(id) { return }
        let slot = kept.firstIndex { (squared, id) < ($0.squared, $0.id) } ?? kept.count
        kept.insert((squared, id, item), at: slot)
        if kept.count > limit { kept.removeLast() }
    }
}
