/// A vehicle following a route from a departure time: where it is at any simulated time. It
/// reaches each node in proportion to the graph's edge times and the end at the route's time.
public struct RouteTimeline: Sendable, Equatable, Codable {
    public let route: Route
    /// Simulated time in seconds at which the vehicle leaves the first node.
    public let departure: Double
    /// Seconds from departure at which each node of the route is reached.
    public let offsets: [Double]
    private let positions: [GeoPoint]

    public init(route: Route, departure: Double, graph: RoadGraph) {
        self.route = route
        self.departure = departure
        var offsets = [0.0]
        var millis: UInt32 = 0
        for (a, b) in zip(route.nodes, route.nodes.dropFirst()) {
            millis += graph.fastestEdge(from: a, to: b).map { graph.edgeMillis[$0] } ?? 0
            offsets.append(Double(millis) / 1000)
        }
        // A route timed by another band or hour than these edge times (a scaled router, or a
        // leg planned elsewhere) keeps its own arrival; the car moves along it in proportion.
        if let driven = offsets.last, driven > 0, abs(route.time - driven) > 0.001 {
            let stretch = route.time / driven
            offsets = offsets.map { $0 * stretch }
        }
        self.offsets = offsets
        positions = route.nodes.map { graph.positions[$0] }
    }

    /// When the vehicle reaches the end of the route.
    public var arrival: Double { departure + route.time }

    /// The index into `route.nodes` of the last node reached by `time` (clamped to the route).
    public func lastNodeIndex(at time: Double) -> Int {
        let elapsed = time - departure
        var low = 0
        var high = offsets.count - 1
        if elapsed >= offsets[high] { return high }
        while high - low > 1 {
            let middle = (low + high) / 2
            if offsets[middle] <= elapsed { low = middle } else { high = middle }
        }
        return low
    }

    /// The next node the vehicle reaches at or after `time`, and when.
    public func nextNode(at time: Double) -> (node: Int, time: Double) {
        let index = lastNodeIndex(at: time)
        if departure + offsets[index] >= time || index == offsets.count - 1 {
            return (route.nodes[index], max(time, departure + offsets[index]))
        }
        return (route.nodes[index + 1], departure + offsets[index + 1])
    }

    /// The vehicle's position at `time`, interpolated along the segment it is on; before
    /// departure it waits at the start, after arrival at the end.
    public func position(at time: Double) -> GeoPoint {
        let index = lastNodeIndex(at: time)
        guard index + 1 < positions.count else { return positions[index] }
        let span = offsets[index + 1] - offsets[index]
        let fraction = span > 0 ? min(1, max(0, (time - departure - offsets[index]) / span)) : 1
        let a = positions[index]
        let b = positions[index + 1]
        return GeoPoint(lat: a.lat + (b.lat - a.lat) * fraction, lon: a.lon + (b.lon - a.lon) * fraction)
    }
}
