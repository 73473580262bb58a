import Foundation
import Wire

/// The city as a few lines of characters: how many online drivers are in each cell, for the
/// dashboard (`·` none, then `1`–`9`, `#` for ten or more).
public struct CoarseMap: Codable, Sendable, Equatable {
    public let rows: [String]
    /// What one cell covers, east–west and north–south, in metres (the map's scale).
    public var cellMetres: [Double]?

    /// A map of `width` × `height` cells over the box around `positions` (north up).
    public init(positions: [LatLon], width: Int = 48, height: Int = 12) {
        guard let first = positions.first else {
            rows = []
            return
        }
        var south = first.lat, north = first.lat, west = first.lon, east = first.lon
        for point in positions {
            south = min(south, point.lat)
            north = max(north, point.lat)
            west = min(west, point.lon)
            east = max(east, point.lon)
        }
        var counts = Array(repeating: Array(repeating: 0, count: width), count: height)
        for point in positions {
            let column = east > west ? Int((point.lon - west) / (east - west) * Double(width - 1)) : 0
            let row = north > south ? Int((north - point.lat) / (north - south) * Double(height - 1)) : 0
            counts[row][column] += 1
        }
        let metresPerDegree = 111_320.0
        cellMetres = [
            (east - west) * metresPerDegree * cos((north + south) / 2 * .pi / 180) / Double(max(1, width - 1)),
            (north - south) * metresPerDegree / Double(max(1, height - 1)),
        ]
        rows = counts.map { row in
            String(row.map { count in count == 0 ? "·" : count < 10 ? Character("\(count)") : "#" })
        }
    }
}
