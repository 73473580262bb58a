import TestSupport
import Testing

@testable import ZeroMQ

@Suite("The outbound buffer: senders held up by a full queue")
struct OutboundBufferTests {
    private func message(_ value: Int) -> [Message] { [Message([UInt8(truncatingIfNeeded: value)])] }

    /// Waits (yielding) until `condition` holds, for at most ten seconds; the waiting sender is a
    /// task of its own.
    private func until(_ condition: @escaping @Sendable () -> Bool) async throws {
        try await within(10) {
            while !condition() {
                try Task.checkCancellation()
                await Task.yield()
            }
        }
    }

    @Test("A sender waiting for room is let in once the queue has drained to half, not at every batch taken")
    func waitersAdmittedAtLowWater() async throws {
        let buffer = OutboundBuffer(capacity: 4, waker: try Waker())
        for value in 0..<4 { try await buffer.enqueue(message(value), operation: "test") }
        let sender = Task { try await buffer.enqueue(message(4), operation: "test") }
        try await until { buffer.counts.waiting == 1 }

        #expect(buffer.takeBatch()?.messages == message(0))
        #expect(buffer.counts == (queued: 3, waiting: 1), "room for one, but above half: still waiting")
        #expect(buffer.takeBatch()?.messages == message(1))
        #expect(buffer.counts == (queued: 3, waiting: 0), "drained to half: let in")
        try await sender.value
        for value in 2..<5 { #expect(buffer.takeBatch()?.messages == message(value), "in order") }
        #expect(buffer.takeBatch() == nil && buffer.isEmpty)
    }

    @Test("Senders waiting in turn are let in in order, up to capacity")
    func waitersInOrderUpToCapacity() async throws {
        let buffer = OutboundBuffer(capacity: 2, waker: try Waker())
        try await buffer.enqueue(message(0) + message(1), operation: "test")
        let first = Task { try await buffer.enqueue(message(2), operation: "test") }
        try await until { buffer.counts.waiting == 1 }
        let second = Task { try await buffer.enqueue(message(3), operation: "test") }
        try await until { buffer.counts.waiting == 2 }

        #expect(buffer.takeBatch()?.messages == message(0) + message(1))
        #expect(buffer.counts == (queued: 2, waiting: 0), "both fit in the room the batch made")
        try await first.value
        try await second.value
        #expect(buffer.takeBatch()?.messages == message(2))
        #expect(buffer.takeBatch()?.messages == message(3))
    }
}
