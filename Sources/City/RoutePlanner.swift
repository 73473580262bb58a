/// Anything that answers fastest-route and travel-time questions on a road graph. Every planner
/// sums the graph's whole-millisecond edge times, so all of them give equal answers.
public protocol RoutePlanner: AnyObject {
    var graph: RoadGraph { get }
    /// The fastest route from node `start` to node `end`, or `nil` if `end` cannot be reached.
    func route(from start: Int, to end: Int) -> Route?
    /// The fastest travel time in seconds from `start` to `end`, or `nil` if unreachable.
    func travelTime(from start: Int, to end: Int) -> Double?
    /// The fastest travel times from each of `sources` to each of `targets`, each equal to
    /// ``travelTime(from:to:)``'s answer.
    func travelTimes(from sources: [Int], to targets: [Int]) -> TravelTimeTable
}

extension RoutePlanner {
    /// One query per pair, for routers with no faster way.
    public func travelTimes(from sources: [Int], to targets: [Int]) -> TravelTimeTable {
        TravelTimeTable(sources: sources, targets: targets) { i, j in travelTime(from: sources[i], to: targets[j]) }
    }
}

extension UInt32 {
    /// The travel time of a node no search has reached; half the range, so sums never overflow.
    static let unreached = UInt32.max / 2
}

/// A priority-queue entry: travel time in the high half, node in the low half, so that the heap
/// compares plain integers.
enum QueueEntry {
    static func pack(_ millis: UInt32, _ node: Int) -> UInt64 { UInt64(millis) << 32 | UInt64(UInt32(node)) }
    static func unpack(_ entry: UInt64) -> (millis: UInt32, node: Int) {
        (UInt32(entry >> 32), Int(UInt32(truncatingIfNeeded: entry)))
    }
}

extension RoadGraph {
    /// The fastest edge from `a` to `b`, if there is one.
    public func fastestEdge(from a: Int, to b: Int) -> Int? {
        var best: Int?
        for edge in edges(from: a) where Int(edgeTarget[edge]) == b {
            if best == nil || edgeMillis[edge] < edgeMillis[best!] { best = edge }
        }
        return best
    }

    /// The route through `nodes` (consecutive ones joined by their fastest edge), `millis` long.
    func route(through nodes: [Int], millis: UInt32) -> Route {
        var length = 0.0
        for (a, b) in zip(nodes, nodes.dropFirst()) {
            if let edge = fastestEdge(from: a, to: b) { length += Double(edgeLength[edge]) }
        }
        return Route(time: Double(millis) / 1000, length: length, nodes: nodes)
    }
}
