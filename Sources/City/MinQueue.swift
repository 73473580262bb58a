/// A binary min-heap of packed queue entries (``QueueEntry``) in memory owned by a
/// ``SearchMemory``, for the innermost loop of routing. swift-collections' `Heap` is a min-max
/// heap, whose every step also compares grandchildren; routing only ever takes the minimum.
struct MinQueue {
    private let slots: UnsafeMutablePointer<UInt64>
    private let capacity: Int
    private(set) var count = 0

    /// A queue in `slots`, which hold `capacity` entries (more than are ever inserted between
    /// two ``removeAll()``s).
    init(slots: UnsafeMutablePointer<UInt64>, capacity: Int) {
        self.slots = slots
        self.capacity = capacity
    }

    var isEmpty: Bool { count == 0 }
    /// The least entry; the queue must not be empty.
    var min: UInt64 { slots[0] }

    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func insert(_ entry: UInt64) {
        precondition(count < capacity, "a search's queue holds every arc it can relax")
        var child = count
        count += 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry < slots[parent] else { break }
            slots[child] = slots[parent]
            child = parent
        }
        slots[child] = entry
    }

    /// Removes and returns the least entry; the queue must not be empty.
    @inline(__always)
    mutating func removeMin() -> UInt64 {
        let least = slots[0]
        count -= 1
        let last = slots[count]
        var hole = 0
        while true {
            var child = 2 * hole + 1
            guard child < count else { break }
            if child + 1 < count, slots[child + 1] < slots[child] { child += 1 }
            guard slots[child] < last else { break }
            slots[hole] = slots[child]
            hole = child
        }
        slots[hole] = last
        return least
    }
}
