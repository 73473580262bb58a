import Testing

@testable import DispatchService

@Suite("Remembered replies: a retried request is answered again, for at least the last `capacity` requests")
struct ReplyMemoryTests {
    private func reply(_ index: Int) -> [Outgoing] {
        [.snapshot(peer: [UInt8(truncatingIfNeeded: index)], inReplyTo: "m\(index)")]
    }

    private func inReplyTo(_ replies: [Outgoing]?) -> String? {
        guard case .snapshot(_, let inReplyTo)? = replies?.first else { return nil }
        return inReplyTo
    }

    @Test("The last `capacity` replies are always remembered; older ones are forgotten by the time twice that came")
    func keepsAtLeastCapacity() {
        var memory = ReplyMemory(capacity: 4)
        for index in 0..<20 {
            memory.remember("s/m\(index)", reply(index))
            for back in 0..<min(4, index + 1) {
                #expect(inReplyTo(memory.replies(to: "s/m\(index - back)")) == "m\(index - back)")
            }
            #expect(memory.count >= min(4, index + 1) && memory.count <= 8)
            if index >= 8 { #expect(memory.replies(to: "s/m\(index - 8)") == nil, "kept more than twice the capacity") }
        }
    }

    @Test("A key remembered again answers with its newest replies, in either generation")
    func newestWins() {
        var memory = ReplyMemory(capacity: 2)
        memory.remember("s/a", reply(1))
        memory.remember("s/b", reply(2))  // the first generation is full: a and b are now the older one
        memory.remember("s/a", reply(3))
        #expect(inReplyTo(memory.replies(to: "s/a")) == "m3")
        #expect(inReplyTo(memory.replies(to: "s/b")) == "m2")
    }

    @Test("A capacity of zero remembers nothing")
    func zeroCapacity() {
        var memory = ReplyMemory(capacity: 0)
        memory.remember("s/a", reply(1))
        #expect(memory.replies(to: "s/a") == nil && memory.count == 0)
    }
}
