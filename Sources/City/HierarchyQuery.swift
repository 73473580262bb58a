import HeapModule

/// Exact fastest-route queries on a ``ContractionHierarchy``: one search climbs from the start
/// over arcs to more important nodes, one climbs from the end over arcs reversed, and the best
/// meeting node gives the answer. Searches skip nodes they provably reach too slowly ("stall on
/// demand"), and stop once neither can improve on the best meeting.
///
/// Not `Sendable`: one per task or actor that routes; the hierarchy itself is shared.
public final class HierarchyQuery: RoutePlanner {
    public let hierarchy: ContractionHierarchy
    public var graph: RoadGraph { hierarchy.graph }

    private var forward: SearchSpace
    private var backward: SearchSpace
    /// The meeting node of the last successful search.
    private var meeting = -1

    public init(hierarchy: ContractionHierarchy) {
        self.hierarchy = hierarchy
        forward = SearchSpace(nodeCount: hierarchy.graph.nodeCount)
        backward = SearchSpace(nodeCount: hierarchy.graph.nodeCount)
    }

    public func travelTime(from start: Int, to end: Int) -> Double? {
        search(from: start, to: end).map { Double($0) / 1000 }
    }

    public func route(from start: Int, to end: Int) -> Route? {
        guard let millis = search(from: start, to: end) else { return nil }
        // Back from the meeting node to the start over the forward search's parents...
        var node = meeting
        var arcs: [(from: Int, to: Int, via: Int)] = []
        while node != start {
            let parent = Int(forward.parent[node])
            arcs.append((parent, node, Int(hierarchy.up.via[Int(forward.parentArc[node])])))
            node = parent
        }
        var nodes = [start]
        for arc in arcs.reversed() { unpack(arc, into: &nodes) }
        // ...then on from the meeting node to the end over the backward search's.
        node = meeting
        while node != end {
            let next = Int(backward.parent[node])
            unpack((node, next, Int(hierarchy.down.via[Int(backward.parentArc[node])])), into: &nodes)
            node = next
        }
        return graph.route(through: nodes, millis: millis)
    }

    /// Appends the road nodes of the arc `from → to` (skipping `via` if it is a shortcut), except
    /// `from` itself.
    private func unpack(_ arc: (from: Int, to: Int, via: Int), into nodes: inout [Int]) {
        guard arc.via >= 0 else {
            nodes.append(arc.to)
            return
        }
        unpack((arc.from, arc.via, viaOf(from: arc.from, to: arc.via)), into: &nodes)
        unpack((arc.via, arc.to, viaOf(from: arc.via, to: arc.to)), into: &nodes)
    }

    /// The node skipped by the hierarchy's arc `from → to`.
    private func viaOf(from: Int, to: Int) -> Int {
        if hierarchy.rank[from] < hierarchy.rank[to], let arc = hierarchy.up.arc(of: from, other: to) {
            return Int(hierarchy.up.via[arc])
        }
        if let arc = hierarchy.down.arc(of: to, other: from) { return Int(hierarchy.down.via[arc]) }
        preconditionFailure("a shortcut's halves are arcs of the hierarchy")
    }

    /// The fastest time in milliseconds, or `nil`; leaves both search spaces for ``route``.
    private func search(from start: Int, to end: Int) -> UInt32? {
        forward.reset()
        backward.reset()
        var forward = self.forward
        var backward = self.backward
        self.forward = SearchSpace(nodeCount: 0)
        self.backward = SearchSpace(nodeCount: 0)
        defer {
            self.forward = forward
            self.backward = backward
        }
        let up = hierarchy.up
        let down = hierarchy.down
        var best = UInt32.unreached
        var meeting = -1
        forward.reach(start, at: 0, parent: -1, arc: -1)
        backward.reach(end, at: 0, parent: -1, arc: -1)
        while true {
            let forwardTop = forward.queue.min.map { QueueEntry.unpack($0).millis } ?? .unreached
            let backwardTop = backward.queue.min.map { QueueEntry.unpack($0).millis } ?? .unreached
            if min(forwardTop, backwardTop) >= best { break }
            let settled =
                forwardTop <= backwardTop
                ? forward.settleNext(meeting: backward, climbing: up, stalledBy: down)
                : backward.settleNext(meeting: forward, climbing: down, stalledBy: up)
            if let settled, settled.total < best {
                best = settled.total
                meeting = settled.node
            }
        }
        self.meeting = meeting
        return meeting >= 0 ? best : nil
    }
}

/// One direction's search: tentative times, parents, the queue, and what to reset.
struct SearchSpace {
    var distance: [UInt32]
    var parent: [Int32]
    var parentArc: [Int32]
    var touched: [Int32] = []
    var queue = Heap<UInt64>()

    init(nodeCount: Int) {
        distance = [UInt32](repeating: .unreached, count: nodeCount)
        parent = [Int32](repeating: -1, count: nodeCount)
        parentArc = [Int32](repeating: -1, count: nodeCount)
    }

    /// Settles the next node of the queue: how it meets the other search, and — unless a more
    /// important neighbour already reaches it faster — relaxes its arcs `climbing` upward.
    /// Returns the node and its total time through the other search, or `nil` for a stale entry.
    mutating func settleNext(
        meeting other: SearchSpace, climbing arcs: ContractionHierarchy.ArcTable,
        stalledBy incoming: ContractionHierarchy.ArcTable
    ) -> (node: Int, total: UInt32)? {
        let (reached, node) = QueueEntry.unpack(queue.removeMin())
        guard reached <= distance[node] else { return nil }
        let total = reached + other.distance[node]
        if isStalled(node, at: reached, by: incoming) { return (node, total) }
        for arc in arcs.arcs(of: node) {
            let next = Int(arcs.other[arc])
            let time = reached + arcs.weight[arc]
            if time < distance[next] { reach(next, at: time, parent: node, arc: arc) }
        }
        return (node, total)
    }

    mutating func reset() {
        for node in touched { distance[Int(node)] = .unreached }
        touched.removeAll(keepingCapacity: true)
        while queue.popMin() != nil {}
    }

    mutating func reach(_ node: Int, at millis: UInt32, parent: Int, arc: Int) {
        if distance[node] == .unreached { touched.append(Int32(node)) }
        distance[node] = millis
        self.parent[node] = Int32(parent)
        parentArc[node] = Int32(arc)
        queue.insert(QueueEntry.pack(millis, node))
    }

    /// Whether a more important neighbour already reached reaches `node` faster than `millis`
    /// (through `arcs`, the arcs coming into `node` in this search's direction from above): then
    /// no fastest path continues from `node` in this search.
    func isStalled(_ node: Int, at millis: UInt32, by arcs: ContractionHierarchy.ArcTable) -> Bool {
        for arc in arcs.arcs(of: node) where distance[Int(arcs.other[arc])] + arcs.weight[arc] < millis {
            return true
        }
        return false
    }
}
