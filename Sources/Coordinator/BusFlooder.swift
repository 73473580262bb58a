import Wire
import ZeroMQ

/// Publishes valid but useless envelopes on the bus under `chaos.flood`, a topic nobody
/// subscribes to: the proxy must carry them (or drop them) without delaying dispatch's events.
struct BusFlooder {
    static let topic = Topic.chaos + "flood"
    let endpoint: String
    let perSecond: Double

    /// Publishes until cancelled, in batches every 10 ms; returns how many went out.
    func run(on transport: Transport) async -> Int {
        guard perSecond > 0, let pub = try? await transport.socket(.pub, options: .eventBus) else { return 0 }
        defer { Task { await pub.close() } }
        guard (try? await pub.connect(endpoint)) != nil else { return 0 }
        var stamper = SequenceStamper(sender: "chaos-flood")
        var sent = 0
        let batch = max(1, Int(perSecond / 100))
        while !Task.isCancelled {
            let messages = (0..<batch).map { _ in
                Message(
                    Frames.Published(topic: Self.topic, envelope: Envelope(.heartbeat(Heartbeat()), from: stamper.next())).frames)
            }
            guard (try? await pub.send(contentsOf: messages)) != nil else { break }
            sent += batch
            try? await Task.sleep(for: .milliseconds(10))
        }
        return sent
    }
}
