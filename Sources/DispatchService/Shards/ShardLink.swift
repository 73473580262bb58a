/// One direction of the link between two dispatch shards (docs/ARCHITECTURE.md, "Sharded
/// dispatch"): what the sending shard has sent and not yet seen acknowledged, and what the
/// receiving shard has delivered — so that every message between shards is delivered exactly
/// once and in order, over a network that loses, repeats and reorders, and across a restart of
/// either end (the state is part of each shard's snapshot, and its inputs are journaled).
///
/// No sockets and no clocks: the shard feeds it what it sends, what arrives and the time, and
/// sends what it returns (the shape of `DispatchDesk`).
public enum ShardLink<Payload: Sendable & Equatable & Codable> {
    /// A message on the link: its number (1, 2, …) and what it carries.
    public struct Numbered: Sendable, Equatable, Codable {
        public let sequence: UInt64
        public let payload: Payload
    }

    /// The sending end: numbers what it sends, keeps it until acknowledged, resends what waited
    /// too long.
    public struct Sender: Sendable, Equatable, Codable {
        /// A message sent and not yet acknowledged, and when it was last sent (seconds).
        public struct Pending: Sendable, Equatable, Codable {
            public let message: Numbered
            public var lastSent: Double
        }

        public private(set) var sent: UInt64 = 0
        /// Sent and not acknowledged, oldest first.
        public private(set) var unacknowledged: [Pending] = []
        /// How long a message waits for its acknowledgement before it is sent again.
        public let resendAfter: Double

        public init(resendAfter: Double) {
            precondition(resendAfter > 0)
            self.resendAfter = resendAfter
        }

        /// Numbers `payload` and keeps it until it is acknowledged; returns what to send.
        public mutating func send(_ payload: Payload, now: Double) -> Numbered {
            sent += 1
            let message = Numbered(sequence: sent, payload: payload)
            unacknowledged.append(Pending(message: message, lastSent: now))
            return message
        }

        /// The receiver has everything up to `sequence` (acknowledgements are cumulative; an old
        /// or repeated one changes nothing).
        public mutating func acknowledged(upTo sequence: UInt64) {
            unacknowledged.removeAll { $0.message.sequence <= sequence }
        }

        /// What waited longer than `resendAfter` for its acknowledgement, to send again now.
        public mutating func due(now: Double) -> [Numbered] {
            var again: [Numbered] = []
            for index in unacknowledged.indices where now - unacknowledged[index].lastSent >= resendAfter {
                unacknowledged[index].lastSent = now
                again.append(unacknowledged[index].message)
            }
            return again
        }
    }

    /// The receiving end: delivers in order, once; holds what came early; acknowledges what it has.
    public struct Receiver: Sendable, Equatable, Codable {
        /// Everything up to this number has been delivered.
        public private(set) var delivered: UInt64 = 0
        /// Arrived ahead of a gap, by number.
        public private(set) var early: [UInt64: Payload] = [:]
        /// The most messages held ahead of a gap; beyond, later ones are dropped (the sender resends).
        public let holding: Int

        public init(holding: Int = 1_024) {
            precondition(holding > 0)
            self.holding = holding
        }

        /// Takes `message`: returns what can now be delivered, in order (nothing for a repeat or one
        /// held ahead of a gap), and the acknowledgement to send back (everything up to it).
        public mutating func receive(_ message: Numbered) -> (deliver: [Payload], acknowledge: UInt64) {
            if message.sequence > delivered + 1 {
                if early.count < holding || early[message.sequence] != nil { early[message.sequence] = message.payload }
                return ([], delivered)
            }
            guard message.sequence == delivered + 1 else { return ([], delivered) }
            var ready = [message.payload]
            delivered += 1
            while let next = early.removeValue(forKey: delivered + 1) {
                ready.append(next)
                delivered += 1
            }
            return (ready, delivered)
        }
    }
}
