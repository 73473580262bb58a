import DequeModule
import Synchronization

/// Messages waiting for the I/O thread to hand them to libzmq.
///
/// Bounded: a sender that finds it full suspends (in order) until the I/O thread has made
/// room. A batch is admitted whole once the queue is below capacity, so the queue holds at
/// most `capacity` plus one batch.
final class OutboundBuffer: Sendable {
    /// One message to send, with the continuation of a sender that waits for libzmq's verdict.
    struct Item: Sendable {
        var message: Message
        var completion: CheckedContinuation<Void, any Error>?
    }

    private struct Waiter {
        let id: UInt64
        let items: [Item]
        /// Resumed on admission; `nil` for confirmed sends, whose items carry their own.
        let continuation: CheckedContinuation<Void, any Error>?
    }

    private struct State {
        var queue: Deque<Item> = []
        var waiters: Deque<Waiter> = []
        var nextWaiterID: UInt64 = 0
        var closed = false

        /// Appends the items if nobody is waiting ahead and there is room; wakes the I/O thread
        /// when the queue goes from empty to not empty.
        mutating func admit(_ items: [Item], capacity: Int, waker: Waker) -> Bool {
            guard waiters.isEmpty, queue.count < capacity else { return false }
            let wasEmpty = queue.isEmpty
            queue.append(contentsOf: items)
            if wasEmpty { waker.wake() }
            return true
        }
    }

    let capacity: Int
    private let waker: Waker
    private let state = Mutex(State())

    init(capacity: Int, waker: Waker) {
        self.capacity = max(1, capacity)
        self.waker = waker
    }

    /// Queues messages, suspending while the queue is full.
    func enqueue(_ messages: [Message], operation: String) async throws {
        guard !messages.isEmpty else { return }
        let items = messages.map { Item(message: $0, completion: nil) }
        var admitted = false
        let id = try state.withLock { state throws -> UInt64 in
            if state.closed { throw ZMQError.closed(operation) }
            admitted = state.admit(items, capacity: capacity, waker: waker)
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        if admitted { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    if state.closed { return .some(ZMQError.closed(operation)) }
                    if Task.isCancelled { return .some(CancellationError()) }
                    if state.admit(items, capacity: capacity, waker: waker) { return .some(nil) }
                    state.waiters.append(Waiter(id: id, items: items, continuation: continuation))
                    return .none
                }
                if let outcome = resumeNow {
                    if let error = outcome { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    /// Queues one message and suspends until libzmq accepted it, or throws its error.
    func enqueueConfirmed(_ message: Message, operation: String) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let item = Item(message: message, completion: continuation)
                let failure: (any Error)? = state.withLock { state in
                    if state.closed { return ZMQError.closed(operation) }
                    if Task.isCancelled { return CancellationError() }
                    if !state.admit([item], capacity: capacity, waker: waker) {
                        state.waiters.append(Waiter(id: id, items: [item], continuation: nil))
                    }
                    return nil
                }
                if let failure { continuation.resume(throwing: failure) }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    /// Whether anything waits to be sent (I/O thread).
    var isEmpty: Bool { state.withLock { $0.queue.isEmpty && $0.waiters.isEmpty } }

    /// Takes up to `limit` items for sending and admits waiting senders into the room made (I/O thread).
    func take(limit: Int) -> [Item] {
        var resumed: [CheckedContinuation<Void, any Error>] = []
        let batch = state.withLock { state -> [Item] in
            let count = min(limit, state.queue.count)
            var batch: [Item] = []
            batch.reserveCapacity(count)
            for _ in 0..<count { batch.append(state.queue.removeFirst()) }
            while state.queue.count < capacity, let waiter = state.waiters.popFirst() {
                state.queue.append(contentsOf: waiter.items)
                if let continuation = waiter.continuation { resumed.append(continuation) }
            }
            return batch
        }
        resumed.forEach { $0.resume() }
        return batch
    }

    /// Refuses further sends; what is queued (and senders already waiting) still drains.
    func seal() {
        state.withLock { $0.closed = true }
    }

    /// Refuses further sends and returns what was never handed to libzmq; waiting senders get `error`.
    func close(error: ZMQError) -> [Item] {
        let (left, waiters) = state.withLock { state -> ([Item], Deque<Waiter>) in
            state.closed = true
            defer {
                state.queue.removeAll()
                state.waiters.removeAll()
            }
            return (Array(state.queue), state.waiters)
        }
        for waiter in waiters {
            if let continuation = waiter.continuation {
                continuation.resume(throwing: error)
            } else {
                waiter.items.forEach { $0.completion?.resume(throwing: error) }
            }
        }
        return left
    }

    /// Messages queued, and messages of senders waiting for room (for statistics).
    var counts: (queued: Int, waiting: Int) {
        state.withLock { state in (state.queue.count, state.waiters.reduce(0) { $0 + $1.items.count }) }
    }

    private func cancelWaiter(_ id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        guard let waiter else { return }
        if let continuation = waiter.continuation {
            continuation.resume(throwing: CancellationError())
        } else {
            waiter.items.forEach { $0.completion?.resume(throwing: CancellationError()) }
        }
    }
}
