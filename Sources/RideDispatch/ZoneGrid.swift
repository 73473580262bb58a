import City

/// Square zones over the city, for surge pricing and rebalancing: each node belongs to the cell
/// of a grid laid over a local projection.
public struct ZoneGrid: Sendable {
    public let cellSize: Double
    public let columns: Int
    public let rows: Int
    /// Each node's zone.
    public let zoneOfNode: [Int32]
    /// A representative node per zone (the one nearest its centre), or -1 for a zone with none.
    public let centreNode: [Int32]
    private let cellCentres: [(x: Double, y: Double)]

    public var zoneCount: Int { columns * rows }

    public init(graph: RoadGraph, cellSize: Double = 1_000) {
        precondition(graph.nodeCount > 0 && cellSize > 0)
        self.cellSize = cellSize
        let projection = LocalProjection(origin: graph.positions[0])
        let points = graph.positions.map { projection.project($0) }
        let minX = points.map(\.x).min()!, minY = points.map(\.y).min()!
        let columns = Int((points.map(\.x).max()! - minX) / cellSize) + 1
        let rows = Int((points.map(\.y).max()! - minY) / cellSize) + 1
        self.columns = columns
        self.rows = rows
        zoneOfNode = points.map { Int32(Int(($0.y - minY) / cellSize) * columns + Int(($0.x - minX) / cellSize)) }
        var centres: [(x: Double, y: Double)] = []
        for row in 0..<rows {
            for column in 0..<columns {
                centres.append((minX + (Double(column) + 0.5) * cellSize, minY + (Double(row) + 0.5) * cellSize))
            }
        }
        cellCentres = centres
        var best = [Int32](repeating: -1, count: columns * rows)
        var bestDistance = [Double](repeating: .infinity, count: columns * rows)
        for (node, point) in points.enumerated() {
            let zone = Int(zoneOfNode[node])
            let centre = centres[zone]
            let distance = (point.x - centre.x) * (point.x - centre.x) + (point.y - centre.y) * (point.y - centre.y)
            if distance < bestDistance[zone] {
                bestDistance[zone] = distance
                best[zone] = Int32(node)
            }
        }
        centreNode = best
    }

    public func zone(of node: Int) -> Int { Int(zoneOfNode[node]) }

    /// Straight-line distance in metres between two zones' centres.
    public func distance(from a: Int, to b: Int) -> Double {
        let (p, q) = (cellCentres[a], cellCentres[b])
        return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }
}
