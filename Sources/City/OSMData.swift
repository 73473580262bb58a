/// The parts of an OpenStreetMap extract a road network needs: node positions and the ways
/// tagged `highway=*`.
public struct OSMData: Sendable {
    public struct Way: Sendable {
        public let id: Int64
        public let nodes: [Int64]
        public let tags: [String: String]
    }

    public var nodes: [Int64: GeoPoint] = [:]
    public var ways: [Way] = []

    public init() {}
}
