import HeapModule

/// The contraction itself: the remaining graph as adjacency lists, a lazily updated priority
/// queue of nodes, and a bounded local search for witnesses (paths that make a shortcut
/// unnecessary).
struct Contraction {
    private var outgoing: [[ContractionArc]]
    private var incoming: [[ContractionArc]]
    private var contracted: [Bool]
    private var deletedNeighbours: [Int32]
    private var level: [Int32]
    private var witness: WitnessSearch

    /// A witness search gives up after settling this many nodes (then a shortcut is added, which
    /// may be unnecessary but is never wrong).
    private static let witnessSettleLimit = 400

    init(graph: RoadGraph) {
        let n = graph.nodeCount
        outgoing = Array(repeating: [], count: n)
        incoming = Array(repeating: [], count: n)
        for from in 0..<n {
            for edge in graph.edges(from: from) {
                let to = Int(graph.edgeTarget[edge])
                guard to != from else { continue }
                Self.keepShorter(&outgoing[from], ContractionArc(node: Int32(to), weight: graph.edgeMillis[edge], via: -1))
                Self.keepShorter(&incoming[to], ContractionArc(node: Int32(from), weight: graph.edgeMillis[edge], via: -1))
            }
        }
        contracted = Array(repeating: false, count: n)
        deletedNeighbours = Array(repeating: 0, count: n)
        level = Array(repeating: 0, count: n)
        witness = WitnessSearch(nodeCount: n)
    }

    struct Result {
        var rank: [Int32]
        var up: [[ContractionArc]]
        var down: [[ContractionArc]]
        var shortcuts: Int
    }

    mutating func run() -> Result {
        let n = outgoing.count
        var rank = [Int32](repeating: 0, count: n)
        var up = [[ContractionArc]](repeating: [], count: n)
        var down = [[ContractionArc]](repeating: [], count: n)
        var shortcutCount = 0
        var queue = Heap<Prioritised>()
        for node in 0..<n {
            queue.insert(Prioritised(priority: priority(of: node, adding: shortcutsFor(node).count), node: Int32(node)))
        }
        var order: Int32 = 0
        while let next = queue.popMin() {
            let node = Int(next.node)
            if contracted[node] { continue }
            // Lazy update: a node whose priority grew since it was queued goes back in. The
            // shortcuts found for the check are the ones contracting it adds.
            let shortcuts = shortcutsFor(node)
            let current = priority(of: node, adding: shortcuts.count)
            if let top = queue.min, current > top.priority {
                queue.insert(Prioritised(priority: current, node: next.node))
                continue
            }
            rank[node] = order
            order += 1
            up[node] = outgoing[node]
            down[node] = incoming[node]
            contracted[node] = true
            var neighbours = Set<Int32>()
            for arc in outgoing[node] {
                incoming[Int(arc.node)].removeAll { Int($0.node) == node }
                neighbours.insert(arc.node)
            }
            for arc in incoming[node] {
                outgoing[Int(arc.node)].removeAll { Int($0.node) == node }
                neighbours.insert(arc.node)
            }
            for shortcut in shortcuts {
                Self.keepShorter(
                    &outgoing[shortcut.from], ContractionArc(node: Int32(shortcut.to), weight: shortcut.weight, via: Int32(node)))
                Self.keepShorter(
                    &incoming[shortcut.to], ContractionArc(node: Int32(shortcut.from), weight: shortcut.weight, via: Int32(node)))
            }
            shortcutCount += shortcuts.count
            outgoing[node] = []
            incoming[node] = []
            for neighbour in neighbours {
                let index = Int(neighbour)
                deletedNeighbours[index] += 1
                level[index] = max(level[index], level[node] + 1)
                queue.insert(Prioritised(priority: priority(of: index, adding: shortcutsFor(index).count), node: neighbour))
            }
        }
        return Result(rank: rank, up: up, down: down, shortcuts: shortcutCount)
    }

    private struct Prioritised: Comparable {
        var priority: Int
        var node: Int32
        static func < (a: Prioritised, b: Prioritised) -> Bool {
            (a.priority, a.node) < (b.priority, b.node)
        }
    }

    private struct Shortcut {
        var from: Int
        var to: Int
        var weight: UInt32
    }

    /// Edge difference (shortcuts added minus arcs removed), plus how many neighbours are already
    /// gone and how deep the node would sit: spreads contraction evenly over the city.
    private func priority(of node: Int, adding added: Int) -> Int {
        let removed = outgoing[node].count + incoming[node].count
        return 2 * (added - removed) + Int(deletedNeighbours[node]) + Int(level[node])
    }

    /// The shortcuts that removing `node` needs: for each pair of an arc in and an arc out, the
    /// path through `node` unless a witness path avoiding it is no longer.
    private mutating func shortcutsFor(_ node: Int) -> [Shortcut] {
        var shortcuts: [Shortcut] = []
        let outs = outgoing[node]
        guard !outs.isEmpty else { return [] }
        let longestOut = outs.map(\.weight).max()!
        for inArc in incoming[node] {
            let from = Int(inArc.node)
            witness.search(
                from: from, avoiding: node, limit: inArc.weight + longestOut,
                settleLimit: Self.witnessSettleLimit, outgoing: outgoing)
            for outArc in outs where Int(outArc.node) != from {
                let through = inArc.weight + outArc.weight
                if witness.distance(to: Int(outArc.node)) > through {
                    shortcuts.append(Shortcut(from: from, to: Int(outArc.node), weight: through))
                }
            }
        }
        return shortcuts
    }

    /// Adds `arc` to `arcs`, or lowers the weight of the arc already there to the same node.
    private static func keepShorter(_ arcs: inout [ContractionArc], _ arc: ContractionArc) {
        if let index = arcs.firstIndex(where: { $0.node == arc.node }) {
            if arc.weight < arcs[index].weight { arcs[index] = arc }
        } else {
            arcs.append(arc)
        }
    }
}

/// Dijkstra over the remaining graph from one node, skipping the node being contracted, stopping
/// past a distance or a number of settled nodes.
struct WitnessSearch {
    private var distance: [UInt32]
    private var touched: [Int32] = []
    private var queue = Heap<UInt64>()

    init(nodeCount: Int) {
        distance = [UInt32](repeating: .unreached, count: nodeCount)
    }

    func distance(to node: Int) -> UInt32 { distance[node] }

    mutating func search(
        from start: Int, avoiding skipped: Int, limit: UInt32, settleLimit: Int,
        outgoing: [[ContractionArc]]
    ) {
        for node in touched { distance[Int(node)] = .unreached }
        touched.removeAll(keepingCapacity: true)
        queue = Heap()
        distance[start] = 0
        touched.append(Int32(start))
        queue.insert(QueueEntry.pack(0, start))
        var settled = 0
        while let entry = queue.popMin() {
            let (reached, node) = QueueEntry.unpack(entry)
            guard reached <= distance[node] else { continue }
            if reached > limit { return }
            settled += 1
            if settled > settleLimit { return }
            for arc in outgoing[node] where Int(arc.node) != skipped {
                let target = Int(arc.node)
                let next = reached + arc.weight
                if next < distance[target] {
                    if distance[target] == .unreached { touched.append(arc.node) }
                    distance[target] = next
                    queue.insert(QueueEntry.pack(next, target))
                }
            }
        }
    }
}
