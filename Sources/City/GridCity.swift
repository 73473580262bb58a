/// A generated grid city: straight two-way streets every `blockLength` metres.
///
/// The geometry of SUMO's taxi reference run is `GridCity(width: 5_000, height: 5_000,
/// blockLength: 250, speedKmh: 50)`.
public struct GridCity: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var blockLength: Double
    public var speedKmh: Double
    /// Where the south-west corner is.
    public var origin: GeoPoint

    public init(
        width: Double, height: Double, blockLength: Double, speedKmh: Double,
        origin: GeoPoint = GeoPoint(lat: 40.7, lon: -74.0)
    ) {
        self.width = width
        self.height = height
        self.blockLength = blockLength
        self.speedKmh = speedKmh
        self.origin = origin
    }

    /// Intersections per row and per column.
    public var columns: Int { Int((width / blockLength).rounded()) + 1 }
    public var rows: Int { Int((height / blockLength).rounded()) + 1 }

    /// The node at column `x`, row `y` (from the south-west corner).
    public func node(x: Int, y: Int) -> Int { y * columns + x }

    public func build() -> RoadGraph {
        let projection = LocalProjection(origin: origin)
        let speed = speedKmh / 3.6
        var builder = RoadGraphBuilder()
        for y in 0..<rows {
            for x in 0..<columns {
                builder.addNode(projection.unproject(x: Double(x) * blockLength, y: Double(y) * blockLength))
            }
        }
        for y in 0..<rows {
            for x in 0..<columns {
                if x + 1 < columns {
                    builder.addTwoWay(node(x: x, y: y), node(x: x + 1, y: y), speed: speed, length: blockLength)
                }
                if y + 1 < rows { builder.addTwoWay(node(x: x, y: y), node(x: x, y: y + 1), speed: speed, length: blockLength) }
            }
        }
        return builder.build()
    }
}
