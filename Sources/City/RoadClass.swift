/// What kind of road a segment belongs to, from OpenStreetMap's `highway` tag: the unit a
/// calibrated speed model gives its factors to (links count as their road).
public enum RoadClass: UInt8, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case motorway
    case trunk
    case primary
    case secondary
    case tertiary
    /// Residential and unclassified streets, plain `road`s and living streets.
    case residential
    case service

    /// The class of an OpenStreetMap `highway` value, or `nil` for one cars do not use.
    public init?(highway: String) {
        let road = highway.hasSuffix("_link") ? String(highway.dropLast(5)) : highway
        switch road {
        case "motorway": self = .motorway
        case "trunk": self = .trunk
        case "primary": self = .primary
        case "secondary": self = .secondary
        case "tertiary": self = .tertiary
        case "residential", "unclassified", "road", "living_street": self = .residential
        case "service": self = .service
        default: return nil
        }
    }

    /// The name a calibration file uses.
    public var description: String {
        switch self {
        case .motorway: "motorway"
        case .trunk: "trunk"
        case .primary: "primary"
        case .secondary: "secondary"
        case .tertiary: "tertiary"
        case .residential: "residential"
        case .service: "service"
        }
    }
}
