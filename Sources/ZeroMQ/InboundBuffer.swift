import DequeModule
import Synchronization

/// Messages received by the I/O thread, waiting for the socket's consumer.
///
/// Bounded: when it holds `capacity` messages the I/O thread stops reading the socket, so
/// libzmq's high-water mark pushes back on the sending peer instead of memory growing here.
final class InboundBuffer: Sendable {
    private struct State {
        var queue: Deque<Message> = []
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiterID: UInt64 = 0
        var finished = false

        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters.removeAll(keepingCapacity: true) }
            return Array(waiters.values)
        }
    }

    let capacity: Int
    private let waker: Waker
    private let state = Mutex(State())

    init(capacity: Int, waker: Waker) {
        self.capacity = max(1, capacity)
        self.waker = waker
    }

    /// Whether the I/O thread may read more from libzmq (I/O thread).
    var hasRoom: Bool { state.withLock { $0.queue.count < capacity && !$0.finished } }

    /// Appends a batch from the I/O thread and wakes any waiting consumer.
    func deliver(_ batch: [Message]) {
        guard !batch.isEmpty else { return }
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.queue.append(contentsOf: batch)
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
    func take(limit: Int) async throws -> [Message]? {
        while true {
            try Task.checkCancellation()
            let (batch, finished, freedRoom) = state.withLock { state -> ([Message], Bool, Bool) in
                let wasFull = state.queue.count >= capacity
                let count = min(limit, state.queue.count)
                guard count > 0 else { return ([], state.finished, false) }
                var batch: [Message] = []
                batch.reserveCapacity(count)
                for _ in 0..<count { batch.append(state.queue.removeFirst()) }
                return (batch, false, wasFull && state.queue.count < capacity)
            }
            if freedRoom { waker.wake() }
            if !batch.isEmpty { return batch }
            if finished { return nil }
            await waitForMessages()
        }
    }

    private func waitForMessages() async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if !state.queue.isEmpty || state.finished || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

extension InboundBuffer {
    /// Messages waiting for the consumer (for statistics).
    var count: Int { state.withLock { $0.queue.count } }
}
