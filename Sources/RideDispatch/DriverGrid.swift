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
    ///
    /// 120 m, a block or so, by default: the smaller the cells, the fewer drivers a search is
    /// offered beyond those it keeps (on metro, dispatch's instructions 2.0 % fewer with 200 m than
    /// with 400 m cells, and 0.6 % fewer again with 120 m; docs/PERFORMANCE.md).
    init(covering points: [(x: Double, y: Double)], cellSize: Double = 120) {
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
    /// the farthest driver it keeps, or every driver on the grid has been offered.
    func search(into nearest: inout NearestByLine<DriverID>, position: (Int) -> (x: Double, y: Double)) {
        guard !cellOf.isEmpty else { return }
        let target = nearest.target
        let centre = cell(of: target)
        let widest = max(centre.column, columns - 1 - centre.column, centre.row, rows - 1 - centre.row)
        let inset = self.inset(of: target, in: centre)
        var offered = 0
        for ring in 0...widest {
            if ring > 0 {
                if offered == cellOf.count { return }
                // Every cell of this ring and beyond is at least (ring - 1) cells and the target's
                // inset away from the target (a target off the grid is only farther from the cells
                // beyond its edge, and its inset is 0).
                if let farthest = nearest.farthestSquared {
                    let gap = Double(ring - 1) * cellSize + inset
                    if gap * gap > farthest { return }
                }
            }
            forEachCell(inRing: ring, around: centre) { index in
                for driver in cells[index] {
                    nearest.consider(driver.id, id: driver.id, at: position(driver.node))
                }
                offered += cells[index].count
            }
        }
    }

    /// How far `point` is from the nearest edge of its cell `cell`: 0 for a point outside it (off
    /// the grid), and a millimetre less than computed, so that rounding never makes it larger than
    /// it is (a driver exactly at the bound may still be kept, by its id).
    private func inset(of point: (x: Double, y: Double), in cell: (column: Int, row: Int)) -> Double {
        let left = minX + Double(cell.column) * cellSize
        let bottom = minY + Double(cell.row) * cellSize
        let nearest = min(point.x - left, left + cellSize - point.x, point.y - bottom, bottom + cellSize - point.y)
        return max(0, nearest - 0.001)
    }

    /// Calls `body` with the index of every cell of the grid at Chebyshev distance `ring` from
    /// `centre`, each once.
    private func forEachCell(inRing ring: Int, around centre: (column: Int, row: Int), _ body: (Int) -> Void) {
        guard ring > 0 else {
            body(centre.row * columns + centre.column)
            return
        }
        let firstColumn = max(0, centre.column - ring)
        let lastColumn = min(columns - 1, centre.column + ring)
        for row in stride(from: centre.row - ring, through: centre.row + ring, by: 2 * ring) where row >= 0 && row < rows {
            for column in firstColumn...lastColumn { body(row * columns + column) }
        }
        let firstRow = max(0, centre.row - ring + 1)
        let lastRow = min(rows - 1, centre.row + ring - 1)
        guard firstRow <= lastRow else { return }
        for column in stride(from: centre.column - ring, through: centre.column + ring, by: 2 * ring)
        where column >= 0 && column < columns {
            for row in firstRow...lastRow { body(row * columns + column) }
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
