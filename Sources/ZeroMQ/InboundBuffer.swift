import DequeModule

/// Messages received by the I/O thread, waiting for the socket's consumer.
///
/// Holds the batches as the I/O thread delivered them and hands them on whole, one at a time,
/// when it can, so a message costs nothing here beyond its batch's share. Bounded: when it holds `capacity`
/// messages, or `byteCapacity` bytes, the I/O thread stops reading the socket, and libzmq's
/// high-water mark then pushes back on the sending peer instead of memory growing here.
final class InboundBuffer: Sendable {
    private struct State {
        var chunks: Deque<[Message]> = []
        /// Messages of the first chunk already taken.
        var headOffset = 0
        var count = 0
        /// Bytes held, kept only when there is a byte capacity (``countsBytes``).
        var bytes = 0
        var countsBytes = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiterID: UInt64 = 0
        var finished = false

        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters.removeAll(keepingCapacity: true) }
            return Array(waiters.values)
        }

        /// Removes up to `limit` messages of the first chunk: the whole chunk, moved, when it fits
        /// (joining chunks would copy every message of the later ones), else a slice of it.
        mutating func take(limit: Int) -> [Message] {
            guard let chunk = chunks.first else { return [] }
            let batch: [Message]
            if headOffset == 0 && chunk.count <= limit {
                batch = chunks.removeFirst()
            } else {
                let end = headOffset + min(chunk.count - headOffset, limit)
                batch = Array(chunk[headOffset..<end])
                headOffset = end
                if headOffset == chunk.count {
                    chunks.removeFirst()
                    headOffset = 0
                }
            }
            count -= batch.count
            if countsBytes { bytes -= batch.reduce(0) { $0 + $1.byteCount } }
            return batch
        }
    }

    let capacity: Int
    let byteCapacity: Int
    private let waker: Waker
    private let state = Locked(State())

    init(capacity: Int, byteCapacity: Int? = nil, waker: Waker) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity ?? .max)
        self.waker = waker
        // Summing every message's size costs the hot path; only a capped buffer pays it.
        state.withLock { $0.countsBytes = byteCapacity != nil }
    }

    /// Whether the I/O thread may read more from libzmq (I/O thread).
    var hasRoom: Bool { state.withLock { !isFull($0) && !$0.finished } }

    /// Bytes the I/O thread may still read before the buffer is full (I/O thread).
    var byteRoom: Int { byteCapacity == .max ? .max : state.withLock { byteCapacity - $0.bytes } }

    private func isFull(_ state: State) -> Bool { state.count >= capacity || state.bytes >= byteCapacity }

    /// Messages waiting for the consumer (for statistics).
    var count: Int { state.withLock { $0.count } }

    /// Appends a batch from the I/O thread and wakes any waiting consumer.
    func deliver(_ batch: [Message]) {
        guard !batch.isEmpty else { return }
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.chunks.append(batch)
            state.count += batch.count
            if state.countsBytes { state.bytes += batch.reduce(0) { $0 + $1.byteCount } }
            return state.takeWaiters()
        }
        waiters.forEach { $0.resume() }
    }

    /// No more messages will come; consumers drain what is left, then see the end.
    func finish() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.finished = true
            return state.takeWaiters()
        }
        waiters.forEach { $0.resume() }
    }

    /// Takes up to `limit` messages, suspending until at least one is there.
    /// - Returns: `nil` once the socket is closed and everything was taken.
    func take(limit: Int, isolation: isolated (any Actor)? = #isolation) async throws -> [Message]? {
        while true {
            try Task.checkCancellation()
            let (batch, finished, freedRoom) = state.withLock { state -> ([Message], Bool, Bool) in
                let wasFull = isFull(state)
                let batch = state.take(limit: max(1, limit))
                return (batch, state.finished, wasFull && !isFull(state))
            }
            if freedRoom { waker.wake() }
            if !batch.isEmpty { return batch }
            if finished { return nil }
            await waitForMessages()
        }
    }

    private func waitForMessages(isolation: isolated (any Actor)? = #isolation) async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        await withCallerIsolatedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.count > 0 || state.finished || Task.isCancelled { return true }
                state.waiters[id] = continuation
                return false
            }
            if ready { continuation.resume() }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
