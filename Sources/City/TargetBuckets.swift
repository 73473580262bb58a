/// What the targets' searches of a many-to-many table left behind: at each node they settled,
/// which target (its column) and how long from the node to it. Filled target by target, then
/// sealed into contiguous groups per node for the sources' searches to scan.
struct TargetBuckets {
    private struct Entry {
        var column: Int32
        var millis: UInt32
    }

    /// Entries per node (0 for nodes no target reached).
    private var count: [Int32]
    /// Where each node's group starts in `entries`, once sealed.
    private var start: [Int32]
    /// The nodes with entries, to clear only those.
    private var used: [Int32] = []
    private var pending: [(node: Int32, entry: Entry)] = []
    private var entries: [Entry] = []

    init(nodeCount: Int) {
        count = [Int32](repeating: 0, count: nodeCount)
        start = [Int32](repeating: 0, count: nodeCount)
    }

    mutating func clear() {
        for node in used { count[Int(node)] = 0 }
        used.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Notes that target `column` is `millis` away from `node`.
    mutating func add(column: Int, millis: UInt32, at node: Int) {
        if count[node] == 0 { used.append(Int32(node)) }
        count[node] += 1
        pending.append((Int32(node), Entry(column: Int32(column), millis: millis)))
    }

    /// Groups the entries by node; call once after the last ``add(column:millis:at:)``.
    mutating func seal() {
        var end: Int32 = 0
        for node in used {
            end += count[Int(node)]
            start[Int(node)] = end
        }
        entries = [Entry](repeating: Entry(column: 0, millis: 0), count: Int(end))
        // Each node's start moves down as its group fills, and ends at the group's first slot.
        for (node, entry) in pending {
            start[Int(node)] -= 1
            entries[Int(start[Int(node)])] = entry
        }
    }

    /// Calls `body` with each target column and time left at `node`.
    @inline(__always)
    func forEach(at node: Int, _ body: (_ column: Int, _ millis: UInt32) -> Void) {
        let entries = count[node]
        guard entries > 0 else { return }
        let first = Int(start[node])
        for index in first..<first + Int(entries) {
            let entry = self.entries[index]
            body(Int(entry.column), entry.millis)
        }
    }
}
