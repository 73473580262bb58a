import HeapModule

/// A route through the road graph.
public struct Route: Sendable, Equatable, Codable {
    /// Travel time in seconds and length in metres.
    public let time: Double
    public let length: Double
    /// The nodes passed, from the start to the end.
    public let nodes: [Int]

    public init(time: Double, length: Double, nodes: [Int]) {
        self.time = time
        self.length = length
        self.nodes = nodes
    }
}

/// Fastest paths by travel time (plain Dijkstra with early exit), reusing its work arrays
/// between queries so that a query costs only the nodes it touches. The reference every faster
/// router is checked against.
///
/// Not `Sendable`: one per task or actor that routes.
public final class PathFinder: RoutePlanner {
    public let graph: RoadGraph
    private var time: [UInt32]
    private var parentEdge: [Int32]
    private var touched: [Int32] = []
    private var queue = Heap<UInt64>()

    public init(graph: RoadGraph) {
        self.graph = graph
        time = [UInt32](repeating: .unreached, count: graph.nodeCount)
        parentEdge = [Int32](repeating: -1, count: graph.nodeCount)
    }

    public func route(from start: Int, to end: Int) -> Route? {
        guard search(from: start, to: end) else { return nil }
        var nodes = [end]
        var node = end
        while node != start {
            node = graph.source(of: Int(parentEdge[node]))
            nodes.append(node)
        }
        return graph.route(through: nodes.reversed(), millis: time[end])
    }

    public func travelTime(from start: Int, to end: Int) -> Double? {
        search(from: start, to: end) ? Double(time[end]) / 1000 : nil
    }

    private func search(from start: Int, to end: Int) -> Bool {
        reset()
        // The loop works on locals: class-stored arrays would pay an exclusivity check on every
        // access. Moving them out (and back) keeps them uniquely referenced, so nothing is copied.
        var time = self.time
        var parentEdge = self.parentEdge
        var touched = self.touched
        var queue = self.queue
        self.time = []
        self.parentEdge = []
        self.touched = []
        self.queue = Heap()
        defer {
            self.time = time
            self.parentEdge = parentEdge
            self.touched = touched
            self.queue = queue
        }
        let edgeStart = graph.edgeStart
        let edgeTarget = graph.edgeTarget
        let edgeMillis = graph.edgeMillis
        time[start] = 0
        touched.append(Int32(start))
        queue.insert(QueueEntry.pack(0, start))
        while let entry = queue.popMin() {
            let (arrivalSoFar, node) = QueueEntry.unpack(entry)
            guard arrivalSoFar <= time[node] else { continue }
            if node == end { return true }
            for edge in Int(edgeStart[node])..<Int(edgeStart[node + 1]) {
                let target = Int(edgeTarget[edge])
                let arrival = arrivalSoFar + edgeMillis[edge]
                if arrival < time[target] {
                    if time[target] == .unreached { touched.append(Int32(target)) }
                    time[target] = arrival
                    parentEdge[target] = Int32(edge)
                    queue.insert(QueueEntry.pack(arrival, target))
                }
            }
        }
        return false
    }

    private func reset() {
        for node in touched {
            time[Int(node)] = .unreached
            parentEdge[Int(node)] = -1
        }
        touched.removeAll(keepingCapacity: true)
        // Draining keeps the heap's storage; a new heap would allocate on every query.
        while queue.popMin() != nil {}
    }
}
