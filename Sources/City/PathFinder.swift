import HeapModule

/// A route through the road graph.
public struct Route: Sendable, Equatable {
    /// Travel time in seconds and length in metres.
    public let time: Double
    public let length: Double
    /// The nodes passed, from the start to the end.
    public let nodes: [Int]
}

/// Fastest paths by travel time (Dijkstra with early exit), reusing its work arrays between
/// queries so that a query costs only the nodes it touches.
///
/// Not `Sendable`: one per task or actor that routes.
public final class PathFinder {
    public let graph: RoadGraph
    private var time: [Float]
    private var parentEdge: [Int32]
    private var touched: [Int32] = []
    private var queue = Heap<Candidate>()

    private struct Candidate: Comparable {
        let time: Float
        let node: Int32
        static func < (a: Candidate, b: Candidate) -> Bool { a.time < b.time }
    }

    public init(graph: RoadGraph) {
        self.graph = graph
        time = [Float](repeating: .infinity, count: graph.nodeCount)
        parentEdge = [Int32](repeating: -1, count: graph.nodeCount)
    }

    /// The fastest route from `start` to `end`, or `nil` if `end` cannot be reached.
    public func route(from start: Int, to end: Int) -> Route? {
        guard search(from: start, to: end) else { return nil }
        var nodes = [end]
        var length: Double = 0
        var node = end
        while node != start {
            let edge = Int(parentEdge[node])
            length += Double(graph.edgeLength[edge])
            node = graph.source(of: edge)
            nodes.append(node)
        }
        return Route(time: Double(time[end]), length: length, nodes: nodes.reversed())
    }

    /// The fastest travel time in seconds from `start` to `end`, or `nil` if unreachable.
    public func travelTime(from start: Int, to end: Int) -> Double? {
        search(from: start, to: end) ? Double(time[end]) : nil
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
        let edgeTime = graph.edgeTime
        func settle(_ node: Int, at arrival: Float, via edge: Int32) {
            if time[node] == .infinity { touched.append(Int32(node)) }
            time[node] = arrival
            parentEdge[node] = edge
        }
        settle(start, at: 0, via: -1)
        queue.insert(Candidate(time: 0, node: Int32(start)))
        while let candidate = queue.popMin() {
            let node = Int(candidate.node)
            guard candidate.time <= time[node] else { continue }
            if node == end { return true }
            for edge in Int(edgeStart[node])..<Int(edgeStart[node + 1]) {
                let target = Int(edgeTarget[edge])
                let arrival = candidate.time + edgeTime[edge]
                if arrival < time[target] {
                    settle(target, at: arrival, via: Int32(edge))
                    queue.insert(Candidate(time: arrival, node: Int32(target)))
                }
            }
        }
        return false
    }

    private func reset() {
        for node in touched {
            time[Int(node)] = .infinity
            parentEdge[Int(node)] = -1
        }
        touched.removeAll(keepingCapacity: true)
        while queue.popMin() != nil {}
    }
}
