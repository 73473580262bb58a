import HeapModule

/// When each live app next wants a tick (or each pending request times out), earliest first and
/// ties by id — the order both hosts tick apps in. A heap with a dictionary of the current
/// wake-ups: changing or dropping a wake-up leaves its old entry in the heap, skipped when it
/// reaches the top. A host asks for the earliest wake-up after every event, so this must not
/// look at every app each time.
struct WakeQueue {
    private struct Entry: Comparable {
        let time: Double
        let id: String
        static func < (a: Entry, b: Entry) -> Bool { (a.time, a.id) < (b.time, b.id) }
    }

    private var current: [String: Double] = [:]
    private var heap = Heap<Entry>()

    /// The current wake-ups by app id.
    var all: [String: Double] { current }
    var isEmpty: Bool { current.isEmpty }

    /// The wake-up of `id`, if it has one.
    subscript(id: String) -> Double? { current[id] }

    /// Sets `id`'s wake-up to `time`, or to the one it has if that is sooner.
    mutating func wake(_ id: String, at time: Double) {
        if let known = current[id], known <= time { return }
        current[id] = time
        heap.insert(Entry(time: time, id: id))
        compactIfStale()
    }

    /// Drops `id`'s wake-up; returns it.
    @discardableResult
    mutating func remove(_ id: String) -> Double? {
        let removed = current.removeValue(forKey: id)
        if removed != nil { compactIfStale() }
        return removed
    }

    /// The earliest wake-up.
    mutating func earliest() -> Double? {
        dropStale()
        return heap.min?.time
    }

    /// Removes and returns the earliest wake-up at or before `time` (ties by app id).
    mutating func popDue(by time: Double) -> (id: String, time: Double)? {
        dropStale()
        guard let top = heap.min, top.time <= time else { return nil }
        heap.removeMin()
        current[top.id] = nil
        return (top.id, top.time)
    }

    private mutating func dropStale() {
        while let top = heap.min, current[top.id] != top.time { heap.removeMin() }
    }

    /// Rebuilds the heap when stale entries outnumber live ones, so it never grows without bound.
    private mutating func compactIfStale() {
        guard heap.count > 64, heap.count > 2 * current.count else { return }
        heap = Heap(current.map { Entry(time: $1, id: $0) })
    }
}
