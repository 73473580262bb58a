import HeapModule

/// The times at which something may fall due, each for an id (an offer's expiry for its driver,
/// a waiting request's last chance of a match): a min-heap told of every deadline as it is set and
/// never as it is dropped. An entry is checked against the engine's books only when it reaches
/// the front (lazy deletion), so a deadline that no longer holds costs one removal, and finding
/// the next one costs O(log n) instead of a scan of every driver or request.
public struct DeadlineQueue<ID: Comparable & Hashable> {
    fileprivate struct Entry: Comparable {
        let time: Double
        let id: ID
        // Not a tuple comparison: in this generic type it builds the tuple's type at run time, for
        // every comparison the heap makes.
        static func < (a: Entry, b: Entry) -> Bool { a.time < b.time || (a.time == b.time && a.id < b.id) }
    }

    private var heap = Heap<Entry>()

    /// An empty queue.
    public init() {}

    /// Entries held, stale ones included.
    public var count: Int { heap.count }

    /// Remembers that `id` falls due at `time` (if the books still say so then).
    public mutating func add(_ time: Double, for id: ID) {
        heap.insert(Entry(time: time, id: id))
    }

    /// The earliest deadline the books still hold (`isCurrent`), dropping the stale ones before it.
    public mutating func earliest(where isCurrent: (Double, ID) -> Bool) -> Double? {
        while let first = heap.min {
            if isCurrent(first.time, first.id) { return first.time }
            heap.removeMin()
        }
        return nil
    }

    /// The ids whose deadline, still current, is at or before `time`: taken out, each once, in
    /// id order (the order a scan of the sorted ids would act in).
    public mutating func takeDue(by time: Double, where isCurrent: (Double, ID) -> Bool) -> [ID] {
        var due: Set<ID> = []
        while let first = heap.min, first.time <= time {
            heap.removeMin()
            if isCurrent(first.time, first.id) { due.insert(first.id) }
        }
        return due.sorted()
    }
}

extension DeadlineQueue: Codable where ID: Codable {
    /// The entries in the heap's own order (a snapshot's; stale ones included, as they are).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for entry in heap.unordered {
            try container.encode(entry.time)
            try container.encode(entry.id)
        }
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var entries: [Entry] = []
        while !container.isAtEnd {
            entries.append(Entry(time: try container.decode(Double.self), id: try container.decode(ID.self)))
        }
        heap = Heap(entries)
    }
}

extension DeadlineQueue: Sendable where ID: Sendable {}
extension DeadlineQueue.Entry: Sendable where ID: Sendable {}
