/// Exact fastest-route queries on a ``ContractionHierarchy``. Travel times come from the
/// hierarchy's ``HubLabels``. Routes come from a search: one climbs from the start over arcs to
/// more important nodes, one climbs from the end over arcs reversed, and the best meeting node
/// gives the answer; searches skip nodes they provably reach too slowly ("stall on demand"), and
/// stop once neither can improve on the best meeting.
///
/// Whole tables — every source to every target — are answered with one search per source and
/// one per target (``travelTimes(from:to:)``), faster than a label merge per pair. A route asked
/// again soon is answered from memory (``GenerationalMemory``).
///
/// Not `Sendable`: one per task or actor that routes; the hierarchy itself is shared.
public final class HierarchyQuery: RoutePlanner {
    public let hierarchy: ContractionHierarchy
    public var graph: RoadGraph { hierarchy.graph }

    private let forward: SearchMemory
    private let backward: SearchMemory
    /// Where the targets' searches left their times, for ``travelTimes(from:to:)``.
    private var buckets: TargetBuckets
    /// The routes asked for lately, by start and end node: a ride's is asked for three times,
    /// minutes apart (its quote, its request's price, its trip), and a route is a pure function
    /// of the graph.
    private var recent = GenerationalMemory<NodePair, Route?>(capacity: 4_096)

    private struct NodePair: Hashable {
        var start: Int
        var end: Int
    }

    public init(hierarchy: ContractionHierarchy) {
        self.hierarchy = hierarchy
        let nodes = hierarchy.graph.nodeCount
        forward = SearchMemory(nodeCount: nodes, arcCount: hierarchy.up.count)
        backward = SearchMemory(nodeCount: nodes, arcCount: hierarchy.down.count)
        buckets = TargetBuckets(nodeCount: hierarchy.graph.nodeCount)
    }

    public func travelTime(from start: Int, to end: Int) -> Double? {
        hierarchy.labels.millis(from: Int(hierarchy.slot[start]), to: Int(hierarchy.slot[end])).map { Double($0) / 1000 }
    }

    /// ``travelTime(from:to:)`` by the two-way search that ``route(from:to:)`` uses instead of the
    /// labels: the same answer, for benchmarks and tests.
    public func searchedTravelTime(from start: Int, to end: Int) -> Double? {
        search(from: start, to: end).map { Double($0.millis) / 1000 }
    }

    public func route(from start: Int, to end: Int) -> Route? {
        recent.answer(NodePair(start: start, end: end)) { searchedRoute(from: $0.start, to: $0.end) }
    }

    /// The route by a two-way search, its arcs unpacked.
    func searchedRoute(from start: Int, to end: Int) -> Route? {
        guard let found = search(from: start, to: end) else { return nil }
        let forward = found.forward
        let backward = found.backward
        let from = Int(hierarchy.slot[start])
        let to = Int(hierarchy.slot[end])
        // Back from the meeting node to the start over the forward search's parents...
        var node = found.meeting
        var climb: [Int] = []
        while node != from {
            climb.append(node)
            node = Int(forward.parent(of: node))
        }
        var nodes = [from]
        var previous = from
        for next in climb.reversed() {
            unpack(previous, next, into: &nodes)
            previous = next
        }
        // ...then on from the meeting node to the end over the backward search's.
        node = found.meeting
        while node != to {
            let next = Int(backward.parent(of: node))
            unpack(node, next, into: &nodes)
            node = next
        }
        return graph.route(through: nodes.map { Int(hierarchy.node[$0]) }, millis: found.millis)
    }

    /// Appends the nodes (in the hierarchy's numbering) of the arc `from → to`, unpacking
    /// shortcuts, except `from` itself.
    private func unpack(_ from: Int, _ to: Int, into nodes: inout [Int]) {
        // Larger numbers are less important: an arc climbing from `from` is in its upward row.
        if from > to, let arc = hierarchy.up.arc(of: from, other: to) {
            unpack(arc, upward: true, to: to, into: &nodes)
        } else if let arc = hierarchy.down.arc(of: to, other: from) {
            unpack(arc, upward: false, to: to, into: &nodes)
        } else {
            preconditionFailure("a route's arcs are arcs of the hierarchy")
        }
    }

    /// Appends the nodes of arc `arc` (of the upward table, or the downward one), which ends at
    /// `to`, except its start: a shortcut's halves are followed by their numbers, not looked up
    /// (a look-up for every half was 3 % of dispatch's time on metro).
    private func unpack(_ arc: Int, upward: Bool, to: Int, into nodes: inout [Int]) {
        let via = Int(upward ? hierarchy.up.via[arc] : hierarchy.down.via[arc])
        guard via >= 0 else {
            nodes.append(to)
            return
        }
        let (first, second) =
            upward
            ? (hierarchy.upHalves.first(of: arc), hierarchy.upHalves.second(of: arc))
            : (hierarchy.downHalves.first(of: arc), hierarchy.downHalves.second(of: arc))
        unpack(first, upward: false, to: via, into: &nodes)
        unpack(second, upward: true, to: to, into: &nodes)
    }

    /// The fastest time in milliseconds, the meeting node and both searches (finished, their
    /// parents left for ``route(from:to:)``), or `nil`.
    private func search(
        from start: Int, to end: Int
    ) -> (millis: UInt32, meeting: Int, forward: UpwardSearch, backward: UpwardSearch)? {
        let up = hierarchy.up
        let down = hierarchy.down
        var forward = self.forward.search(from: Int(hierarchy.slot[start]))
        var backward = self.backward.search(from: Int(hierarchy.slot[end]))
        defer {
            forward.finish()
            backward.finish()
        }
        var best = UInt32.unreached
        var meeting = -1
        while true {
            let forwardTop = forward.top
            let backwardTop = backward.top
            if min(forwardTop, backwardTop) >= best { break }
            let settled =
                forwardTop <= backwardTop
                ? forward.settleNext(climbing: up, stalledBy: down).map { ($0.node, $0.millis + backward.distance(of: $0.node)) }
                : backward.settleNext(climbing: down, stalledBy: up).map { ($0.node, $0.millis + forward.distance(of: $0.node)) }
            if let (node, total) = settled, total < best {
                best = total
                meeting = node
            }
        }
        return meeting >= 0 ? (best, meeting, forward, backward) : nil
    }

    /// The fastest travel time from every one of `sources` to every one of `targets` (road
    /// nodes; repeats allowed), exactly as ``travelTime(from:to:)`` gives each: one full upward
    /// search from each target leaves its times in buckets at the nodes it settles, and one from
    /// each source scans the buckets it meets (Knopp et al., 2007).
    public func travelTimes(from sources: [Int], to targets: [Int]) -> TravelTimeTable {
        let up = hierarchy.up
        let down = hierarchy.down
        buckets.clear()
        for (column, target) in targets.enumerated() {
            var backward = self.backward.search(from: Int(hierarchy.slot[target]))
            while backward.top != .unreached {
                guard let settled = backward.settleNext(climbing: down, stalledBy: up), !settled.stalled else { continue }
                buckets.add(column: column, millis: settled.millis, at: settled.node)
            }
            backward.finish()
        }
        buckets.seal()
        var millis = [UInt32](repeating: .unreached, count: sources.count * targets.count)
        millis.withUnsafeMutableBufferPointer { table in
            for (row, source) in sources.enumerated() {
                let rowStart = row * targets.count
                var forward = self.forward.search(from: Int(hierarchy.slot[source]))
                defer { forward.finish() }
                while forward.top != .unreached {
                    guard let settled = forward.settleNext(climbing: up, stalledBy: down), !settled.stalled else { continue }
                    buckets.forEach(at: settled.node) { column, rest in
                        let total = settled.millis + rest
                        if total < table[rowStart + column] { table[rowStart + column] = total }
                    }
                }
            }
        }
        return TravelTimeTable(sources: sources, targets: targets) { row, column in
            let found = millis[row * targets.count + column]
            return found == .unreached ? nil : Double(found) / 1000
        }
    }
}
