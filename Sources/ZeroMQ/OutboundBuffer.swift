import DequeModule

/// Messages waiting for the I/O thread to hand them to libzmq.
///
/// Holds whole batches as senders handed them over, so a message costs nothing here beyond
/// its batch's share. Bounded: a sender that finds it full suspends (in order, cancellably)
/// until the I/O thread has made room. A batch is admitted whole once the queue is below
/// capacity, so the queue holds at most `capacity` messages plus one batch.
///
/// Waiting senders are let in only once the queue has drained to ``lowWater`` (half the
/// capacity), and then up to capacity: a sender held up by a steady stream is woken once per
/// half a queue's worth of messages, not once per batch the I/O thread takes.
final class OutboundBuffer: Sendable {
    /// Messages handed over together; a confirmed send is a batch of one whose sender waits
    /// for libzmq's verdict through `confirmation`.
    struct Batch: Sendable {
        var messages: [Message]
        var confirmation: Confirmation?
    }

    private struct Waiter {
        let id: UInt64
        let batch: Batch
        /// Resumed when the batch is admitted.
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var batches: Deque<Batch> = []
        var count = 0
        var waiters: Deque<Waiter> = []
        var nextWaiterID: UInt64 = 0
        var closed = false

        /// Appends the batch if nobody is waiting ahead and there is room.
        /// - Returns: whether it was admitted, and whether the queue was empty before.
        mutating func admit(_ batch: Batch, capacity: Int) -> (admitted: Bool, wasEmpty: Bool) {
            guard waiters.isEmpty, count < capacity else { return (false, false) }
            let wasEmpty = batches.isEmpty
            batches.append(batch)
            count += batch.messages.count
            return (true, wasEmpty)
        }

        mutating func newWaiterID() -> UInt64 {
            nextWaiterID += 1
            return nextWaiterID
        }
    }

    let capacity: Int
    /// How far the queue drains before waiting senders are let in.
    let lowWater: Int
    private let waker: Waker
    private let state = Locked(State())

    init(capacity: Int, waker: Waker) {
        self.capacity = max(1, capacity)
        lowWater = self.capacity / 2
        self.waker = waker
    }

    /// Queues messages, suspending while the queue is full.
    func enqueue(_ messages: [Message], operation: String, isolation: isolated (any Actor)? = #isolation) async throws {
        guard !messages.isEmpty else { return }
        try await enqueue(Batch(messages: messages, confirmation: nil), operation: operation)
    }

    /// Queues one message and suspends until libzmq accepted it, or throws its error.
    func enqueueConfirmed(_ message: Message, operation: String, isolation: isolated (any Actor)? = #isolation) async throws {
        let confirmation = Confirmation()
        try await enqueue(Batch(messages: [message], confirmation: confirmation), operation: operation)
        try await confirmation.wait()
    }

    private func enqueue(_ batch: Batch, operation: String, isolation: isolated (any Actor)? = #isolation) async throws {
        let (id, admitted, wasEmpty) = try state.withLock { state throws -> (UInt64, Bool, Bool) in
            if state.closed { throw ZMQError.closed(operation) }
            let (admitted, wasEmpty) = state.admit(batch, capacity: capacity)
            return (state.newWaiterID(), admitted, wasEmpty)
        }
        if wasEmpty { waker.wake() }
        if admitted { return }
        try await withCallerIsolatedContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Bool, any Error>? = state.withLock { state in
                if state.closed { return .failure(ZMQError.closed(operation)) }
                if Task.isCancelled { return .failure(CancellationError()) }
                let (admitted, wasEmpty) = state.admit(batch, capacity: capacity)
                if admitted { return .success(wasEmpty) }
                state.waiters.append(Waiter(id: id, batch: batch, continuation: continuation))
                return nil
            }
            switch outcome {
            case let .success(wasEmpty)?:
                if wasEmpty { waker.wake() }
                continuation.resume()
            case let .failure(error)?:
                continuation.resume(throwing: error)
            case nil:
                break
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    /// Whether anything waits to be sent (I/O thread).
    var isEmpty: Bool { state.withLock { $0.batches.isEmpty && $0.waiters.isEmpty } }

    /// Takes the oldest batch and admits waiting senders into the room made (I/O thread).
    func takeBatch() -> Batch? {
        var admitted: [CheckedContinuation<Void, any Error>] = []
        let batch = state.withLock { state -> Batch? in
            guard let batch = state.batches.popFirst() else { return nil }
            state.count -= batch.messages.count
            guard state.count <= lowWater else { return batch }
            while state.count < capacity, let waiter = state.waiters.popFirst() {
                state.batches.append(waiter.batch)
                state.count += waiter.batch.messages.count
                admitted.append(waiter.continuation)
            }
            // What keeps a waiting sender from waiting forever: the I/O thread has a batch to take.
            assert(state.waiters.isEmpty || !state.batches.isEmpty, "a sender waits with nothing queued before it")
            return batch
        }
        admitted.forEach { $0.resume() }
        return batch
    }

    /// Refuses further sends; what is queued (and senders already waiting) still drains.
    func seal() {
        state.withLock { $0.closed = true }
    }

    /// Refuses further sends and returns what was never handed to libzmq; waiting senders get `error`.
    func close(error: ZMQError) -> [Batch] {
        let (left, waiters) = state.withLock { state -> ([Batch], Deque<Waiter>) in
            state.closed = true
            defer {
                state.batches.removeAll()
                state.waiters.removeAll()
                state.count = 0
            }
            // Copying an empty Deque writes to the shared empty-array storage (a ThreadSanitizer report).
            return (state.batches.isEmpty ? [] : Array(state.batches), state.waiters)
        }
        waiters.forEach { $0.continuation.resume(throwing: error) }
        return left
    }

    /// Messages queued, and messages of senders waiting for room (for statistics).
    var counts: (queued: Int, waiting: Int) {
        state.withLock { state in (state.count, state.waiters.reduce(0) { $0 + $1.batch.messages.count }) }
    }

    private func cancelWaiter(_ id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: CancellationError())
    }
}
