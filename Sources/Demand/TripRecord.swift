import City
import Foundation

/// A trip (or, for pickup-only files, a pickup) read from a real record file.
public struct TripRecord: Sendable, Equatable {
    /// Local time of the pickup, in seconds (see ``CivilTime``).
    public var pickupTime: Double
    public var pickup: GeoPoint
    /// Where the trip ended; `nil` in files that only record pickups.
    public var dropoff: GeoPoint?
    /// The line of the file it came from.
    public var line: Int
    /// Local time the trip ended, in files that record it.
    public var dropoffTime: Double?
    /// The distance the meter recorded, in metres, in files that record it.
    public var meteredMetres: Double?

    public init(
        pickupTime: Double, pickup: GeoPoint, dropoff: GeoPoint?, line: Int, dropoffTime: Double? = nil,
        meteredMetres: Double? = nil
    ) {
        self.pickupTime = pickupTime
        self.pickup = pickup
        self.dropoff = dropoff
        self.line = line
        self.dropoffTime = dropoffTime
        self.meteredMetres = meteredMetres
    }

    /// How long the meter ran, in seconds, where the file says.
    public var meteredSeconds: Double? { dropoffTime.map { $0 - pickupTime } }
}

/// The record layouts ribcity reads.
public enum TripFileFormat: String, Sendable, CaseIterable {
    /// NYC TLC yellow taxis (`tpep_` columns).
    case tlcYellow = "TLC yellow"
    /// NYC TLC green taxis (`lpep_` columns).
    case tlcGreen = "TLC green"
    /// Uber pickups in NYC, 2014: `Date/Time,Lat,Lon,Base`.
    case uberPickups = "Uber 2014 pickups"

    /// Column names for pickup time, pickup lat, lon, and (if any) dropoff lat, lon.
    var columns: (time: String, lat: String, lon: String, dropoffLat: String?, dropoffLon: String?) {
        switch self {
        case .tlcYellow: ("tpep_pickup_datetime", "pickup_latitude", "pickup_longitude", "dropoff_latitude", "dropoff_longitude")
        case .tlcGreen: ("lpep_pickup_datetime", "pickup_latitude", "pickup_longitude", "dropoff_latitude", "dropoff_longitude")
        case .uberPickups: ("Date/Time", "Lat", "Lon", nil, nil)
        }
    }

    /// The metered distance column (miles), for layouts that have one.
    var meteredMiles: String? {
        switch self {
        case .tlcYellow, .tlcGreen: "trip_distance"
        case .uberPickups: nil
        }
    }

    /// The drop-off time column, for layouts that have one.
    var dropoffTime: String? {
        switch self {
        case .tlcYellow: "tpep_dropoff_datetime"
        case .tlcGreen: "lpep_dropoff_datetime"
        case .uberPickups: nil
        }
    }

    /// Every column this layout needs.
    var required: [String] {
        let c = columns
        return [c.time, c.lat, c.lon, c.dropoffLat, c.dropoffLon].compactMap { $0 }
    }

    /// The format whose columns a header has (compared without case).
    static func detect(header: [String]) -> TripFileFormat? {
        let names = Set(header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        return allCases.first { format in format.required.map { $0.lowercased() }.allSatisfy(names.contains) }
    }

    /// Why a header is none of the layouts: the nearest one's missing columns, and what it has.
    static func mismatch(header: [String]) -> String {
        let names = Set(header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        let nearest = allCases.max { a, b in
            a.required.filter { names.contains($0.lowercased()) }.count
                < b.required.filter { names.contains($0.lowercased()) }.count
        }!
        let missing = nearest.required.filter { !names.contains($0.lowercased()) }
        let found = header.prefix(12).joined(separator: ", ") + (header.count > 12 ? ", …" : "")
        return "the header is not a TLC yellow, TLC green or Uber 2014 layout: nearest is \(nearest.rawValue), which also needs "
            + missing.joined(separator: ", ") + "; the header has \(found)"
    }
}
