import City

/// An origin–destination model fitted on real trips: for a pickup, the destination is the pickup
/// moved by the displacement of a random real trip that started in the same cell (or, where too
/// few started there, of any real trip). Keeps the real length and direction mix of each area.
public struct ODModel: Sendable {
    public let cellSize: Double
    public let minimumSamples: Int
    private let projection: LocalProjection
    private let displacements: [(dx: Double, dy: Double)]
    /// Indices into `displacements` by cell key.
    private let byCell: [Int64: [Int32]]

    /// Fits the model on the records that have a dropoff.
    public init?(fitting records: [TripRecord], cellSize: Double = 1_000, minimumSamples: Int = 5) {
        let trips = records.filter { $0.dropoff != nil }
        guard let first = trips.first else { return nil }
        self.cellSize = cellSize
        self.minimumSamples = minimumSamples
        let projection = LocalProjection(origin: first.pickup)
        self.projection = projection
        var displacements: [(dx: Double, dy: Double)] = []
        var byCell: [Int64: [Int32]] = [:]
        for trip in trips {
            let a = projection.project(trip.pickup)
            let b = projection.project(trip.dropoff!)
            byCell[Self.key(a, cellSize), default: []].append(Int32(displacements.count))
            displacements.append((b.x - a.x, b.y - a.y))
        }
        self.displacements = displacements
        self.byCell = byCell
    }

    public var tripCount: Int { displacements.count }

    /// A destination for a ride from `origin`, or `nil` if none of `attempts` draws is accepted.
    public func destination(
        from origin: GeoPoint, attempts: Int = 20, using random: inout some RandomNumberGenerator,
        accept: (GeoPoint) -> Bool = { _ in true }
    ) -> GeoPoint? {
        let start = projection.project(origin)
        let local = byCell[Self.key(start, cellSize)].flatMap { $0.count >= minimumSamples ? $0 : nil }
        for _ in 0..<attempts {
            let index =
                local.map { Int($0.randomElement(using: &random)!) } ?? Int.random(in: 0..<displacements.count, using: &random)
            let move = displacements[index]
            let candidate = projection.unproject(x: start.x + move.dx, y: start.y + move.dy)
            if accept(candidate) { return candidate }
        }
        return nil
    }

    private static func key(_ point: (x: Double, y: Double), _ size: Double) -> Int64 {
        Int64((point.x / size).rounded(.down)) << 32 | Int64(UInt32(bitPattern: Int32((point.y / size).rounded(.down))))
    }
}
