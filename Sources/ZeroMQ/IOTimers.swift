import HeapModule

/// Who sleeps on the I/O thread's clock, and until when (``IOExecutor/sleep(until:)``): the loop
/// polls no longer than the earliest deadline and wakes the sleepers that are due, so a sleep
/// costs no timer thread, and no thread is woken to end it.
///
/// A sleep takes an id first, then waits under it; a cancellation may come before the wait is
/// in place (it is remembered and the wait ends at once) or after the sleep ended (nothing to do).
/// Every change goes through these methods; debug builds check that every waiter is in the heap.
struct IOTimers {
    /// What a waiting sleeper is told: `true` when its deadline came, `false` when the I/O thread
    /// stopped first (it then sleeps the rest elsewhere).
    typealias Waiter = CheckedContinuation<Bool, any Error>

    private struct Deadline: Comparable {
        let at: ContinuousClock.Instant
        let id: UInt64
        static func < (lhs: Deadline, rhs: Deadline) -> Bool { (lhs.at, lhs.id) < (rhs.at, rhs.id) }
    }

    private enum State {
        case reserved
        case waiting(Waiter)
        case cancelled
    }

    private var deadlines = Heap<Deadline>()
    private var states: [UInt64: State] = [:]
    private var lastID: UInt64 = 0
    /// Once the I/O thread has stopped, no sleeper waits here.
    private(set) var stopped = false

    /// How a wait was taken.
    enum Placement {
        case waiting
        /// Cancelled before it waited: end it with `CancellationError`.
        case cancelled
        /// The I/O thread has stopped: sleep elsewhere.
        case stopped
    }

    /// An id for a sleep about to wait.
    mutating func reserve() -> UInt64 {
        lastID += 1
        states[lastID] = .reserved
        return lastID
    }

    /// The sleep `id` waits until `deadline`.
    mutating func wait(_ id: UInt64, until deadline: ContinuousClock.Instant, _ waiter: Waiter) -> Placement {
        defer { checkInvariants() }
        if case .cancelled? = states[id] {
            states[id] = nil
            return .cancelled
        }
        guard !stopped else {
            states[id] = nil
            return .stopped
        }
        states[id] = .waiting(waiter)
        deadlines.insert(Deadline(at: deadline, id: id))
        return .waiting
    }

    /// The sleep `id` was cancelled: its waiter, to end with `CancellationError`, if it waits.
    mutating func cancel(_ id: UInt64) -> Waiter? {
        defer { checkInvariants() }
        switch states[id] {
        case .reserved?:
            states[id] = .cancelled
            return nil
        case .waiting(let waiter)?:
            // Its deadline stays in the heap until it comes up, and is passed over then.
            states[id] = nil
            return waiter
        case .cancelled?, nil:
            return nil
        }
    }

    /// The earliest deadline of a sleeper still waiting.
    mutating func earliest() -> ContinuousClock.Instant? {
        while let first = deadlines.min {
            if case .waiting? = states[first.id] { return first.at }
            deadlines.removeMin()
        }
        return nil
    }

    /// The sleepers whose deadline is `now` or past, earliest first, to wake.
    mutating func takeDue(now: ContinuousClock.Instant) -> [Waiter] {
        defer { checkInvariants() }
        var due: [Waiter] = []
        while let first = deadlines.min, first.at <= now {
            deadlines.removeMin()
            if case .waiting(let waiter)? = states.removeValue(forKey: first.id) { due.append(waiter) }
        }
        return due
    }

    /// The I/O thread stops: every sleeper still waiting, to send elsewhere; later ones are too.
    mutating func stop() -> [Waiter] {
        stopped = true
        var waiting: [Waiter] = []
        while let first = deadlines.popMin() {
            if case .waiting(let waiter)? = states.removeValue(forKey: first.id) { waiting.append(waiter) }
        }
        return waiting
    }

    private func checkInvariants() {
        #if DEBUG
            let waiting = Set(states.compactMap { if case .waiting = $0.value { $0.key } else { nil } })
            assert(waiting.isSubset(of: Set(deadlines.unordered.map(\.id))), "IOTimers: a sleeper without its deadline")
        #endif
    }
}
