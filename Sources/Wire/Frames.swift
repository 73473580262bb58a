/// The frame layouts of ribcity's sockets (docs/PROTOCOL.md, "Frames").
public enum Frames {
    /// A message as a ROUTER receives it from a DEALER: `[peer identity, envelope]`.
    public struct Routed: Sendable {
        public var peer: [UInt8]
        public var envelope: Envelope

        public init(peer: [UInt8], envelope: Envelope) {
            self.peer = peer
            self.envelope = envelope
        }

        public init(frames: [[UInt8]]) throws(WireError) {
            guard frames.count == 2 else { throw .frameCount(got: frames.count, expected: "2 (identity, envelope)") }
            peer = frames[0]
            envelope = try WireCodec.decode(frames[1])
        }

        /// The frames a ROUTER sends back to that peer.
        public var frames: [[UInt8]] { [peer, WireCodec.encode(envelope)] }
    }

    /// A message on the event bus: `[topic, envelope]`.
    public struct Published: Sendable {
        public var topic: String
        public var envelope: Envelope

        public init(topic: String, envelope: Envelope) {
            self.topic = topic
            self.envelope = envelope
        }

        public init(frames: [[UInt8]]) throws(WireError) {
            guard frames.count == 2 else { throw .frameCount(got: frames.count, expected: "2 (topic, envelope)") }
            guard !frames[0].isEmpty, let topic = UTF8Text.validated(frames[0]) else {
                throw .badTopic
            }
            self.topic = topic
            envelope = try WireCodec.decode(frames[1])
        }

        public var frames: [[UInt8]] { [Array(topic.utf8), WireCodec.encode(envelope)] }
    }

    /// What a DEALER sends and receives: `[envelope]`.
    public static func direct(_ frames: [[UInt8]]) throws(WireError) -> Envelope {
        guard frames.count == 1 else { throw .frameCount(got: frames.count, expected: "1 (envelope)") }
        return try WireCodec.decode(frames[0])
    }
}
