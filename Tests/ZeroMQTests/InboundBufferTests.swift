import Testing

@testable import ZeroMQ

@Suite("The inbound buffer: batches handed on as the I/O thread read them")
struct InboundBufferTests {
    private func messages(_ range: Range<Int>) -> [Message] { range.map { Message([UInt8(truncatingIfNeeded: $0)]) } }

    @Test("Each batch is handed on whole and alone, in order; a limit smaller than a batch takes it in slices")
    func takesBatchByBatch() async throws {
        let buffer = InboundBuffer(capacity: 1_000, byteCapacity: 1_000, waker: try Waker())
        buffer.deliver(messages(0..<5))
        buffer.deliver(messages(5..<8))
        buffer.deliver(messages(8..<10))
        #expect(buffer.count == 10)
        #expect(try await buffer.take(limit: 1_024) == messages(0..<5), "the first batch, not joined to the next")
        #expect(try await buffer.take(limit: 2) == messages(5..<7))
        #expect(try await buffer.take(limit: 1_024) == messages(7..<8), "the rest of a sliced batch")
        #expect(buffer.count == 2 && buffer.byteRoom == 998)
        buffer.finish()
        #expect(try await buffer.take(limit: 1) == messages(8..<9))
        #expect(try await buffer.take(limit: 1) == messages(9..<10))
        #expect(try await buffer.take(limit: 1) == nil, "finished and drained")
        #expect(buffer.byteRoom == 1_000)
    }
}
