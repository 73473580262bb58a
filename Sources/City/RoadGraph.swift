/// A directed road network: intersections (nodes) and road segments (edges) with lengths and
/// travel times, stored compactly (edges grouped by their source node).
public struct RoadGraph: Sendable {
    /// Where each node is.
    public let positions: [GeoPoint]
    /// Edges leaving node `n` are `edgeStart[n] ..< edgeStart[n + 1]`.
    public let edgeStart: [Int32]
    public let edgeTarget: [Int32]
    /// Length in metres and travel time in seconds of each edge.
    public let edgeLength: [Float]
    public let edgeTime: [Float]
    /// Travel time of each edge in whole milliseconds: the weight every router sums, so that
    /// different routing methods give bit-for-bit equal answers.
    public let edgeMillis: [UInt32]
    /// The kind of road each edge is (``RoadClass/residential`` where the source has no classes).
    public let edgeClass: [RoadClass]

    public var nodeCount: Int { positions.count }
    public var edgeCount: Int { edgeTarget.count }

    public init(
        positions: [GeoPoint], edgeStart: [Int32], edgeTarget: [Int32], edgeLength: [Float], edgeTime: [Float],
        edgeClass: [RoadClass]? = nil
    ) {
        precondition(edgeClass == nil || edgeClass!.count == edgeTarget.count, "one road class per edge")
        self.positions = positions
        self.edgeStart = edgeStart
        self.edgeTarget = edgeTarget
        self.edgeLength = edgeLength
        self.edgeTime = edgeTime
        self.edgeClass = edgeClass ?? [RoadClass](repeating: .residential, count: edgeTarget.count)
        edgeMillis = edgeTime.map { UInt32(min(Double(UInt32.max / 4), (Double($0) * 1000).rounded())) }
    }

    /// The edges leaving `node`.
    public func edges(from node: Int) -> Range<Int> {
        Int(edgeStart[node])..<Int(edgeStart[node + 1])
    }

    /// The edge's source node (a binary search over `edgeStart`).
    public func source(of edge: Int) -> Int {
        var low = 0
        var high = nodeCount
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(edgeStart[middle]) <= edge { low = middle } else { high = middle }
        }
        return low
    }
}

/// Collects nodes and edges, then freezes them into a ``RoadGraph``.
public struct RoadGraphBuilder: Sendable {
    public struct Edge: Sendable {
        public var from: Int
        public var to: Int
        public var length: Double
        public var time: Double
        public var roadClass: RoadClass
    }

    public private(set) var positions: [GeoPoint] = []
    public private(set) var edges: [Edge] = []

    public init() {}

    /// Adds a node and returns its index.
    @discardableResult
    public mutating func addNode(_ position: GeoPoint) -> Int {
        positions.append(position)
        return positions.count - 1
    }

    /// Adds a directed edge; its length is the straight line unless given.
    public mutating func addEdge(
        from: Int, to: Int, speed metresPerSecond: Double, length: Double? = nil, roadClass: RoadClass = .residential
    ) {
        let length = length ?? positions[from].distance(to: positions[to])
        addEdge(from: from, to: to, length: length, time: length / metresPerSecond, roadClass: roadClass)
    }

    /// Adds a directed edge whose length and travel time are already known.
    public mutating func addEdge(from: Int, to: Int, length: Double, time: Double, roadClass: RoadClass = .residential) {
        precondition(positions.indices.contains(from) && positions.indices.contains(to), "edge to unknown node")
        edges.append(Edge(from: from, to: to, length: length, time: time, roadClass: roadClass))
    }

    /// Adds an edge in each direction.
    public mutating func addTwoWay(_ a: Int, _ b: Int, speed: Double, length: Double? = nil) {
        addEdge(from: a, to: b, speed: speed, length: length)
        addEdge(from: b, to: a, speed: speed, length: length)
    }

    public func build() -> RoadGraph {
        var counts = [Int32](repeating: 0, count: positions.count + 1)
        for edge in edges { counts[edge.from + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var next = counts
        var target = [Int32](repeating: 0, count: edges.count)
        var length = [Float](repeating: 0, count: edges.count)
        var time = [Float](repeating: 0, count: edges.count)
        var roadClass = [RoadClass](repeating: .residential, count: edges.count)
        for edge in edges {
            let slot = Int(next[edge.from])
            next[edge.from] += 1
            target[slot] = Int32(edge.to)
            length[slot] = Float(edge.length)
            time[slot] = Float(edge.time)
            roadClass[slot] = edge.roadClass
        }
        return RoadGraph(
            positions: positions, edgeStart: counts, edgeTarget: target, edgeLength: length, edgeTime: time,
            edgeClass: roadClass)
    }
}
