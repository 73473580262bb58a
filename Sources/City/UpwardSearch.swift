/// The memory of one direction of hierarchy searches, allocated once per ``HierarchyQuery`` and
/// freed with it: every search in that direction borrows it through an ``UpwardSearch``.
///
/// Plain arrays would check uniqueness, and a class's stored arrays exclusive access, on every
/// write of the innermost loop of every ETA; these buffers are only ever reached through the
/// one search that runs at a time on the query that owns them.
final class SearchMemory {
    let nodeCount: Int
    let queueCapacity: Int
    fileprivate let distance: UnsafeMutablePointer<UInt32>
    fileprivate let parent: UnsafeMutablePointer<Int32>
    fileprivate let touched: UnsafeMutablePointer<Int32>
    fileprivate let queue: UnsafeMutablePointer<UInt64>

    /// Memory for searches over `nodeCount` nodes that can relax at most `arcCount` arcs.
    init(nodeCount: Int, arcCount: Int) {
        self.nodeCount = nodeCount
        queueCapacity = arcCount + 1
        distance = .allocate(capacity: nodeCount)
        distance.initialize(repeating: .unreached, count: nodeCount)
        parent = .allocate(capacity: nodeCount)
        parent.initialize(repeating: -1, count: nodeCount)
        touched = .allocate(capacity: nodeCount)
        queue = .allocate(capacity: queueCapacity)
    }

    deinit {
        distance.deallocate()
        parent.deallocate()
        touched.deallocate()
        queue.deallocate()
    }

    /// A search starting at `node`; the previous one must have been ``UpwardSearch/finish()``ed.
    func search(from node: Int) -> UpwardSearch {
        var search = UpwardSearch(memory: self)
        search.reach(node, at: 0, from: -1)
        return search
    }
}

/// One search climbing a ``ContractionHierarchy`` from one node (numbers are the hierarchy's):
/// tentative times and parents, a queue, and what to reset. Point-to-point queries run two (one
/// each way); many-to-many tables one per source and per target. A local value: it borrows its
/// ``SearchMemory`` for as long as the method that made it runs.
struct UpwardSearch {
    private let distance: UnsafeMutablePointer<UInt32>
    private let parents: UnsafeMutablePointer<Int32>
    private let touched: UnsafeMutablePointer<Int32>
    private var touchedCount = 0
    private var queue: MinQueue

    fileprivate init(memory: SearchMemory) {
        distance = memory.distance
        parents = memory.parent
        touched = memory.touched
        queue = MinQueue(slots: memory.queue, capacity: memory.queueCapacity)
    }

    /// The tentative time of `node`, `.unreached` if none.
    @inline(__always)
    func distance(of node: Int) -> UInt32 { distance[node] }

    /// The node `node` was reached from, -1 for the start.
    func parent(of node: Int) -> Int { Int(parents[node]) }

    /// The least time in the queue, `.unreached` if it is empty.
    var top: UInt32 { queue.isEmpty ? .unreached : QueueEntry.unpack(queue.min).millis }

    /// Forgets the times, leaving the memory ready for the next search (parents stay readable).
    mutating func finish() {
        for index in 0..<touchedCount { distance[Int(touched[index])] = .unreached }
        touchedCount = 0
        queue.removeAll()
    }

    /// Settles the next node of the queue and — unless a more important neighbour already
    /// reaches it faster (`incoming`, the arcs into it from above in this search's direction:
    /// "stall on demand") — relaxes its arcs `climbing` upward. Returns the node, its time and
    /// whether it stalled, or `nil` for a queue entry that a faster one overtook.
    @inline(__always)
    mutating func settleNext(
        climbing arcs: ArcTable, stalledBy incoming: ArcTable
    ) -> (node: Int, millis: UInt32, stalled: Bool)? {
        let (millis, node) = QueueEntry.unpack(queue.removeMin())
        guard millis <= distance[node] else { return nil }
        for arc in incoming.range(of: node) {
            let from = incoming.arcs[arc]
            if distance[Int(from.node)] &+ from.millis < millis { return (node, millis, true) }
        }
        for arc in arcs.range(of: node) {
            let next = arcs.arcs[arc]
            let time = millis &+ next.millis
            if time < distance[Int(next.node)] { reach(Int(next.node), at: time, from: node) }
        }
        return (node, millis, false)
    }

    @inline(__always)
    fileprivate mutating func reach(_ node: Int, at millis: UInt32, from: Int) {
        if distance[node] == .unreached {
            touched[touchedCount] = Int32(node)
            touchedCount += 1
        }
        distance[node] = millis
        parents[node] = Int32(from)
        queue.insert(QueueEntry.pack(millis, node))
    }
}
