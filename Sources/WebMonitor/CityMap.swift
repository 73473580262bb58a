import City
import RideDispatch
import Wire

/// The city's streets and surge zones as the web page draws them: every street once (a two-way
/// street is one line), node positions flattened, and each zone's box.
public struct CityMap: Codable, Sendable, Equatable {
    /// Node positions, `[lat0, lon0, lat1, lon1, …]`.
    public var nodes: [Double]
    /// Streets as pairs of node indices, `[a0, b0, a1, b1, …]`.
    public var streets: [Int32]
    /// The box around every node: south, west, north, east.
    public var bounds: [Double]
    public var zones: [Zone]

    /// A surge zone's box (its nodes' extent), by the name the bus gives it ("zone-3").
    public struct Zone: Codable, Sendable, Equatable {
        public var name: String
        public var box: [Double]
    }

    /// The map of `graph`, with surge zones of `zoneSize` metres as dispatch draws them.
    public init(graph: RoadGraph, zoneSize: Double) {
        nodes = graph.positions.flatMap { [$0.lat, $0.lon] }
        var seen = Set<UInt64>()
        var streets: [Int32] = []
        for edge in 0..<graph.edgeCount {
            let a = Int32(graph.source(of: edge)), b = graph.edgeTarget[edge]
            let key = UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b)))
            if seen.insert(key).inserted { streets += [a, b] }
        }
        self.streets = streets
        let lats = graph.positions.map(\.lat), lons = graph.positions.map(\.lon)
        bounds = [lats.min() ?? 0, lons.min() ?? 0, lats.max() ?? 0, lons.max() ?? 0]
        let grid = ZoneGrid(graph: graph, cellSize: zoneSize)
        var boxes: [Int: [Double]] = [:]
        for (node, point) in graph.positions.enumerated() {
            let zone = grid.zone(of: node)
            let box = boxes[zone] ?? [point.lat, point.lon, point.lat, point.lon]
            boxes[zone] = [min(box[0], point.lat), min(box[1], point.lon), max(box[2], point.lat), max(box[3], point.lon)]
        }
        zones = boxes.sorted { $0.key < $1.key }.map { Zone(name: WireIDs.zone($0.key), box: $0.value) }
    }
}
