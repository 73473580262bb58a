import Testing

@testable import ZeroMQ

@Suite("A ROUTER's batch with each peer's messages together")
struct PeerGroupingTests {
    private func message(_ peer: String, _ body: String) -> Message {
        Message(strings: [peer, body])
    }

    private func bodies(_ messages: [Message]) -> [String] {
        messages.map { String(decoding: $0.frames[1], as: UTF8.self) }
    }

    @Test("Interleaved peers come out together: peers in the order they first appear, each peer's messages in theirs")
    func groupsInterleaved() {
        let batch = [
            message("b", "b1"), message("a", "a1"), message("b", "b2"), message("c", "c1"), message("a", "a2"),
            message("b", "b3"),
        ]
        let grouped = batch.groupedByPeer()
        #expect(bodies(grouped) == ["b1", "b2", "b3", "a1", "a2", "c1"])
        #expect(grouped.map(\.first) == ["b", "b", "b", "a", "a", "c"].map { Array($0.utf8) })
    }

    @Test("A batch already grouped, one message, or none is left as it is")
    func leavesGroupedAlone() {
        let grouped = [message("a", "a1"), message("a", "a2"), message("b", "b1")]
        #expect(bodies(grouped.groupedByPeer()) == ["a1", "a2", "b1"])
        #expect(bodies([message("a", "a1")].groupedByPeer()) == ["a1"])
        #expect([Message]().groupedByPeer().isEmpty)
    }
}
