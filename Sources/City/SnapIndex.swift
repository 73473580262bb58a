/// Where a position meets the road network: the nearest point on any edge.
public struct Snap: Sendable, Equatable {
    /// The edge, and how far along it (0 at its source, 1 at its target).
    public let edge: Int
    public let fraction: Double
    /// The point on the road, and its distance in metres from the position snapped.
    public let point: GeoPoint
    public let distance: Double
}

/// Finds the nearest point on the road network to any position, through a grid of buckets over
/// a local projection (each edge listed in every bucket its bounding box touches), searched in
/// rings outward from the position until no closer edge can exist.
public struct SnapIndex: Sendable {
    public let graph: RoadGraph
    private let projection: LocalProjection
    private let cellSize: Double
    private let minX: Double, minY: Double
    private let columns: Int, rows: Int
    /// Edges by bucket, as ranges into `bucketEdges`.
    private let bucketStart: [Int32]
    private let bucketEdges: [Int32]
    private let projected: [(x: Double, y: Double)]
    /// Each edge's source node, so that a query never searches for it.
    private let edgeSource: [Int32]

    /// - Parameter cellSize: bucket side in metres; about a block suits a city.
    public init(graph: RoadGraph, cellSize: Double = 200) {
        precondition(graph.nodeCount > 0, "an empty graph has nothing to snap to")
        self.graph = graph
        self.cellSize = cellSize
        let projection = LocalProjection(origin: graph.positions[0])
        self.projection = projection
        let points = graph.positions.map { projection.project($0) }
        projected = points
        let minX = points.map(\.x).min()! - cellSize
        let minY = points.map(\.y).min()! - cellSize
        let columns = Int(((points.map(\.x).max()! + cellSize) - minX) / cellSize) + 1
        let rows = Int(((points.map(\.y).max()! + cellSize) - minY) / cellSize) + 1
        self.minX = minX
        self.minY = minY
        self.columns = columns
        self.rows = rows

        var buckets = [[Int32]](repeating: [], count: columns * rows)
        var edgeSource = [Int32](repeating: 0, count: graph.edgeCount)
        for source in 0..<graph.nodeCount {
            for edge in graph.edges(from: source) {
                edgeSource[edge] = Int32(source)
                let a = points[source]
                let b = points[Int(graph.edgeTarget[edge])]
                let (x0, x1) = (Self.cell(min(a.x, b.x), minX, cellSize), Self.cell(max(a.x, b.x), minX, cellSize))
                let (y0, y1) = (Self.cell(min(a.y, b.y), minY, cellSize), Self.cell(max(a.y, b.y), minY, cellSize))
                for y in y0...y1 {
                    for x in x0...x1 { buckets[y * columns + x].append(Int32(edge)) }
                }
            }
        }
        var start: [Int32] = [0]
        start.reserveCapacity(buckets.count + 1)
        for bucket in buckets { start.append(start.last! + Int32(bucket.count)) }
        bucketStart = start
        bucketEdges = buckets.flatMap { $0 }
        self.edgeSource = edgeSource
    }

    private static func cell(_ value: Double, _ minimum: Double, _ size: Double) -> Int {
        Int((value - minimum) / size)
    }

    /// The road node nearest along the nearest edge (its nearer end), and how far the position is
    /// from that edge: where a ride asked for at `position` starts or ends.
    public func nearestNode(to position: GeoPoint) -> (node: Int, distance: Double) {
        node(of: snap(position))
    }

    /// ``nearestNode(to:)`` if the nearest edge is at most `limit` metres away, else `nil`:
    /// the same answer, without searching farther than the limit for a position far from any road.
    public func nearestNode(to position: GeoPoint, within limit: Double) -> (node: Int, distance: Double)? {
        snap(position, within: limit).map(node(of:))
    }

    private func node(of found: Snap) -> (node: Int, distance: Double) {
        (found.fraction < 0.5 ? Int(edgeSource[found.edge]) : Int(graph.edgeTarget[found.edge]), found.distance)
    }

    /// The nearest point on the road network to `position`.
    public func snap(_ position: GeoPoint) -> Snap {
        // Unbounded, the search finds an edge: the graph has one.
        snap(position, within: .infinity)!
    }

    /// ``snap(_:)`` if the nearest point on the road network is at most `limit` metres away, else
    /// `nil`: the search stops once nothing that near can be left.
    public func snap(_ position: GeoPoint, within limit: Double) -> Snap? {
        let p = projection.project(position)
        let cx = max(0, min(columns - 1, Self.cell(p.x, minX, cellSize)))
        let cy = max(0, min(rows - 1, Self.cell(p.y, minY, cellSize)))
        var best: (edge: Int, fraction: Double, distance: Double)?
        var ring = 0
        let maxRing = max(columns, rows)
        // How far the position is inside its own cell: every ring searched widens the square
        // searched by a whole cell on each side.
        let inside = max(
            0,
            min(
                p.x - (minX + Double(cx) * cellSize), minX + Double(cx + 1) * cellSize - p.x,
                p.y - (minY + Double(cy) * cellSize), minY + Double(cy + 1) * cellSize - p.y))
        while ring <= maxRing {
            for y in (cy - ring)...(cy + ring) where y >= 0 && y < rows {
                for x in (cx - ring)...(cx + ring) where x >= 0 && x < columns {
                    guard abs(x - cx) == ring || abs(y - cy) == ring else { continue }
                    let bucket = y * columns + x
                    for slot in Int(bucketStart[bucket])..<Int(bucketStart[bucket + 1]) {
                        let edge = Int(bucketEdges[slot])
                        let (fraction, distance) = nearest(on: edge, to: p)
                        if distance < best?.distance ?? .infinity { best = (edge, fraction, distance) }
                    }
                }
            }
            // An edge in none of the cells searched lies wholly outside their square, at least
            // as far as the square's nearest side: `ring` whole cells plus the way to the edge of
            // the position's own cell (often enough to stop after that cell alone). A tie found
            // further out would not replace the best (strictly closer only), so the answer is
            // the one a wider search gives; and past the limit nothing is left within it.
            let unsearched = Double(ring) * cellSize + inside
            if let best, best.distance <= unsearched { break }
            if unsearched > limit { return nil }
            ring += 1
        }
        guard let found = best, found.distance <= limit else { return nil }
        let a = projected[Int(edgeSource[found.edge])]
        let b = projected[Int(graph.edgeTarget[found.edge])]
        let point = projection.unproject(x: a.x + (b.x - a.x) * found.fraction, y: a.y + (b.y - a.y) * found.fraction)
        return Snap(edge: found.edge, fraction: found.fraction, point: point, distance: found.distance)
    }

    private func nearest(on edge: Int, to p: (x: Double, y: Double)) -> (fraction: Double, distance: Double) {
        let a = projected[Int(edgeSource[edge])]
        let b = projected[Int(graph.edgeTarget[edge])]
        let dx = b.x - a.x
        let dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
        let ex = a.x + dx * t - p.x
        let ey = a.y + dy * t - p.y
        return (t, (ex * ex + ey * ey).squareRoot())
    }
}
