import TestSupport
import Testing

@testable import DispatchService

@Suite("Links between dispatch shards: exactly once, in order, over a network that loses, repeats and reorders")
struct ShardLinkTests {
    typealias Link = ShardLink<String>

    @Test("In order on a clean network; acknowledged messages are forgotten; a repeat is dropped and acknowledged again")
    func clean() {
        var sender = Link.Sender(resendAfter: 1)
        var receiver = Link.Receiver()
        let first = sender.send("reserve driver-7", now: 0)
        let second = sender.send("handover rider-3", now: 0)
        #expect(receiver.receive(first) == (["reserve driver-7"], 1))
        #expect(receiver.receive(first) == ([], 1), "a repeat is not delivered again")
        sender.acknowledged(upTo: 1)
        #expect(sender.unacknowledged.map(\.message) == [second])
        #expect(receiver.receive(second) == (["handover rider-3"], 2))
        sender.acknowledged(upTo: 2)
        sender.acknowledged(upTo: 1)
        #expect(sender.unacknowledged.isEmpty && sender.due(now: 10).isEmpty)
    }

    @Test("Ahead of a gap a message is held, and delivered with the gap's filling; what waits is sent again")
    func gapAndResend() {
        var sender = Link.Sender(resendAfter: 2)
        var receiver = Link.Receiver()
        let one = sender.send("a", now: 0)
        let two = sender.send("b", now: 0.5)
        #expect(receiver.receive(two) == ([], 0))
        #expect(sender.due(now: 1.9).isEmpty)
        #expect(sender.due(now: 2.0) == [one])
        #expect(sender.due(now: 2.5) == [two], "each waits its own time")
        #expect(receiver.receive(one) == (["a", "b"], 2))
    }

    private struct InFlight {
        let at: Double
        let order: UInt64
        let message: Link.Numbered?
        let acknowledgement: UInt64?
    }

    @Test(
        "A random network — a third lost, a fifth repeated, delays up to 3 s — and a restart of both ends halfway: every message delivered once, in order",
        arguments: 0..<20)
    func randomNetwork(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        var sender = Link.Sender(resendAfter: 1.5)
        var receiver = Link.Receiver(holding: 8)
        var network: [InFlight] = []
        var delivered: [String] = []
        var order: UInt64 = 0
        func transmit(_ message: Link.Numbered?, _ acknowledgement: UInt64?, now: Double) {
            guard Double.random(in: 0..<1, using: &random) >= 1.0 / 3 else { return }
            let copies = Double.random(in: 0..<1, using: &random) < 0.2 ? 2 : 1
            for _ in 0..<copies {
                order += 1
                network.append(
                    InFlight(
                        at: now + Double.random(in: 0...3, using: &random), order: order, message: message,
                        acknowledgement: acknowledgement))
            }
        }
        let count = 60
        var now = 0.0
        while now < 400, delivered.count < count || !sender.unacknowledged.isEmpty {
            if Int(sender.sent) < count, Double.random(in: 0..<1, using: &random) < 0.5 {
                transmit(sender.send("m\(sender.sent + 1)", now: now), nil, now: now)
            }
            for message in sender.due(now: now) { transmit(message, nil, now: now) }
            network.sort { ($0.at, $0.order) < ($1.at, $1.order) }
            while let next = network.first, next.at <= now {
                network.removeFirst()
                if let message = next.message {
                    let (ready, acknowledgement) = receiver.receive(message)
                    delivered += ready
                    transmit(nil, acknowledgement, now: now)
                }
                if let acknowledgement = next.acknowledgement { sender.acknowledged(upTo: acknowledgement) }
            }
            if now == 100 {
                // Both shards restart from what their snapshots hold.
                sender = try CompactDecoder.decode(Link.Sender.self, from: CompactEncoder.encode(sender)[...])
                receiver = try CompactDecoder.decode(Link.Receiver.self, from: CompactEncoder.encode(receiver)[...])
            }
            now += 0.25
        }
        #expect(delivered == (1...count).map { "m\($0)" }, "seed \(seed)")
        #expect(sender.unacknowledged.isEmpty, "seed \(seed)")
        #expect(receiver.early.isEmpty)
    }
}
