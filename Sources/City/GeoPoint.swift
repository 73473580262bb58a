import Foundation

/// A position on the earth in degrees (WGS 84).
public struct GeoPoint: Sendable, Hashable, Codable, CustomStringConvertible {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres.
    public func distance(to other: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.lat - lat) * radians
        let dLon = (other.lon - lon) * radians
        let h =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(lat * radians) * cos(other.lat * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Self.earthRadius * asin(min(1, sqrt(h)))
    }

    public var description: String { String(format: "(%.6f, %.6f)", lat, lon) }
}

/// Maps positions to metres on a plane tangent at an origin (equirectangular): exact enough
/// for a city, and cheap, for spatial indexing and snapping.
public struct LocalProjection: Sendable {
    public let origin: GeoPoint
    private let metresPerDegreeLat: Double
    private let metresPerDegreeLon: Double

    public init(origin: GeoPoint) {
        self.origin = origin
        metresPerDegreeLat = GeoPoint.earthRadius * Double.pi / 180
        metresPerDegreeLon = metresPerDegreeLat * cos(origin.lat * Double.pi / 180)
    }

    /// Metres east and north of the origin.
    public func project(_ point: GeoPoint) -> (x: Double, y: Double) {
        ((point.lon - origin.lon) * metresPerDegreeLon, (point.lat - origin.lat) * metresPerDegreeLat)
    }

    /// The position `x` metres east and `y` metres north of the origin.
    public func unproject(x: Double, y: Double) -> GeoPoint {
        GeoPoint(lat: origin.lat + y / metresPerDegreeLat, lon: origin.lon + x / metresPerDegreeLon)
    }
}
