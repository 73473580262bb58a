/// A road graph preprocessed for fast exact queries (contraction hierarchies, Geisberger et al.
/// 2008): nodes are ranked by importance and removed one by one from the least important, adding
/// a shortcut wherever removing a node would lengthen a fastest path. A query then only climbs:
/// from the start and from the end towards more important nodes (see ``HierarchyQuery``).
///
/// The hierarchy numbers the nodes its own way, most important first: every search climbs
/// towards the same few hundred nodes at the top, which then sit together in memory.
///
/// Built once per city and shared read-only.
public struct ContractionHierarchy: Sendable {
    public let graph: RoadGraph
    /// Each road node's number in the hierarchy (0 the most important).
    let slot: [Int32]
    /// The road node of each number in the hierarchy.
    let node: [Int32]
    /// Arcs from each node to more important nodes (towards smaller numbers).
    let up: ArcTable
    /// Arcs into each node from more important nodes, stored at the less important end and
    /// listing the source.
    let down: ArcTable
    /// Every node's labels, for point-to-point times without a search.
    let labels: HubLabels
    /// The halves of the shortcuts of `up` and of `down`, for unpacking routes.
    let upHalves: ShortcutHalves
    let downHalves: ShortcutHalves

    /// The shortcuts added while contracting.
    public let shortcutCount: Int
    /// Entries in all nodes' labels, both ways.
    public var labelEntryCount: Int { labels.entryCount }

    /// Contracts `graph` and labels its nodes (whole Manhattan, 28,763 nodes, in about 2.4 s).
    public init(graph: RoadGraph) {
        self.graph = graph
        var contraction = Contraction(graph: graph)
        let result = contraction.run()
        let count = graph.nodeCount
        var slot = [Int32](repeating: 0, count: count)
        var node = [Int32](repeating: 0, count: count)
        for road in 0..<count {
            let number = Int32(count - 1) - result.rank[road]
            slot[road] = number
            node[Int(number)] = Int32(road)
        }
        self.slot = slot
        self.node = node
        up = ArcTable(rows: result.up, slot: slot, order: node)
        down = ArcTable(rows: result.down, slot: slot, order: node)
        labels = HubLabels(up: up, down: down, nodeCount: count)
        shortcutCount = result.shortcuts
        guard let upHalves = ShortcutHalves(of: up, upward: true, up: up, down: down),
            let downHalves = ShortcutHalves(of: down, upward: false, up: up, down: down)
        else { preconditionFailure("contraction adds a shortcut only where both of its halves are arcs") }
        self.upHalves = upHalves
        self.downHalves = downHalves
    }
}

extension ContractionHierarchy {
    /// A hierarchy of parts already built (read back by ``HierarchyFile``, which checks them);
    /// `nil` when a shortcut's halves are not both among the arcs.
    init?(
        graph: RoadGraph, slot: [Int32], node: [Int32], up: ArcTable, down: ArcTable, labels: HubLabels, shortcutCount: Int
    ) {
        guard let upHalves = ShortcutHalves(of: up, upward: true, up: up, down: down),
            let downHalves = ShortcutHalves(of: down, upward: false, up: up, down: down)
        else { return nil }
        self.graph = graph
        self.slot = slot
        self.node = node
        self.up = up
        self.down = down
        self.labels = labels
        self.shortcutCount = shortcutCount
        self.upHalves = upHalves
        self.downHalves = downHalves
    }
}

/// A node of the hierarchy and a time in milliseconds: an arc (the node at its other end and its
/// weight) or a label's entry (a hub and the time to or from it).
struct NodeTime: Sendable {
    var node: Int32
    var millis: UInt32
}

/// Arcs in compressed rows, numbered by the hierarchy: `arcs[first[n] ..< first[n + 1]]` are
/// node `n`'s, and `via[a]` is the node the arc `a` skips if it is a shortcut, or -1.
struct ArcTable: Sendable {
    let first: [Int32]
    let arcs: [NodeTime]
    let via: [Int32]

    var count: Int { arcs.count }

    @inline(__always)
    func range(of node: Int) -> Range<Int> { Int(first[node])..<Int(first[node + 1]) }

    /// The arc of `node` whose other end is `other` (there is at most one): a binary search, since
    /// a node's arcs are in ascending order of their other end (``init(rows:slot:order:)`` sorts
    /// them, ``HierarchyFile`` checks them). Unpacking a route asks this for every shortcut; a
    /// scan of the node's arcs was 2.9 % of dispatch's time on nyc-day.
    func arc(of node: Int, other: Int) -> Int? {
        var low = Int(first[node]), high = Int(first[node + 1])
        while low < high {
            let middle = (low + high) / 2
            let end = Int(arcs[middle].node)
            if end == other { return middle }
            if end < other { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Whether every node's arcs are in strictly ascending order of their other end, as
    /// ``arc(of:other:)`` needs.
    var isOrdered: Bool {
        (0..<first.count - 1).allSatisfy { node in
            let row = range(of: node)
            return row.count < 2 || zip(row.dropLast(), row.dropFirst()).allSatisfy { arcs[$0].node < arcs[$1].node }
        }
    }

    /// A table of arcs already numbered (read back by ``HierarchyFile``).
    init(first: [Int32], arcs: [NodeTime], via: [Int32]) {
        self.first = first
        self.arcs = arcs
        self.via = via
    }

    /// The table of `rows` (by road node, naming road nodes), renumbered: `slot` maps a road node
    /// to its number, `order` a number to its road node.
    init(rows: [[ContractionArc]], slot: [Int32], order: [Int32]) {
        var first: [Int32] = [0]
        var arcs: [NodeTime] = []
        var via: [Int32] = []
        first.reserveCapacity(order.count + 1)
        for road in order {
            // Ascending numbers: the most important neighbour is looked at first.
            for arc in rows[Int(road)].sorted(by: { slot[Int($0.node)] < slot[Int($1.node)] }) {
                arcs.append(NodeTime(node: slot[Int(arc.node)], millis: arc.weight))
                via.append(arc.via < 0 ? -1 : slot[Int(arc.via)])
            }
            first.append(Int32(arcs.count))
        }
        self.first = first
        self.arcs = arcs
        self.via = via
    }
}

/// One arc while contracting: the node at its other end, its weight in milliseconds and the node
/// a shortcut skips (-1 for a road segment).
struct ContractionArc {
    var node: Int32
    var weight: UInt32
    var via: Int32
}
