/// A driver, as dispatch knows it.
public struct DriverID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: DriverID, b: DriverID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "driver \(rawValue)" }
}

/// A ride request, unique for the life of a dispatch engine.
public struct RequestID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: RequestID, b: RequestID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "request \(rawValue)" }
}
