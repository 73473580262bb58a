import Wire

/// The requests waiting for their replies, by message id: a reply may come before its requester
/// waits for it (kept until asked for), while it waits (handed over), or after it gave up
/// (dropped, or — for a message that answers nothing — passed on as incoming).
struct ReplyBook {
    private enum Slot {
        case expected
        case waiting(CheckedContinuation<Envelope, any Error>)
        case arrived(Envelope)
    }

    /// What became of an envelope that arrived.
    enum Delivery {
        /// A requester was waiting: resume it with the envelope.
        case resume(CheckedContinuation<Envelope, any Error>, Envelope)
        /// Kept for the requester, who has not started waiting yet.
        case kept
        /// Not a reply to anything waited for: a push (offer, leg, trip update) if it answers nothing.
        case incoming(Envelope)
        /// A late reply to a request given up on: dropped.
        case late
    }

    /// What a requester gets when it asks for its reply.
    enum Claim {
        case arrived(Envelope)
        /// Not yet: register a waiter with ``wait(for:_:)``.
        case pending
        /// Given up on already (timed out before the requester got here).
        case abandoned
    }

    private var slots: [String: Slot] = [:]

    /// How many requests are waiting for a reply.
    var count: Int { slots.count }

    /// A request with this message id is about to be sent.
    mutating func expect(_ messageID: String) { slots[messageID] = .expected }

    /// Whether a reply to `messageID` is still wanted.
    func isExpected(_ messageID: String) -> Bool { slots[messageID] != nil }

    mutating func deliver(_ envelope: Envelope) -> Delivery {
        switch slots[envelope.inReplyTo] {
        case .expected?:
            slots[envelope.inReplyTo] = .arrived(envelope)
            return .kept
        case .waiting(let continuation)?:
            slots[envelope.inReplyTo] = nil
            return .resume(continuation, envelope)
        case .arrived?, nil:
            return envelope.inReplyTo.isEmpty ? .incoming(envelope) : .late
        }
    }

    mutating func claim(_ messageID: String) -> Claim {
        switch slots[messageID] {
        case .arrived(let envelope)?:
            slots[messageID] = nil
            return .arrived(envelope)
        case .expected?: return .pending
        case .waiting?, nil: return .abandoned
        }
    }

    /// The requester waits for the reply to `messageID` (after ``claim(_:)`` said `.pending`).
    mutating func wait(for messageID: String, _ continuation: CheckedContinuation<Envelope, any Error>) {
        slots[messageID] = .waiting(continuation)
    }

    /// Gives up on a reply: a waiter to release, if one was waiting; a late reply will be dropped.
    mutating func abandon(_ messageID: String) -> CheckedContinuation<Envelope, any Error>? {
        defer { slots[messageID] = nil }
        if case .waiting(let continuation)? = slots[messageID] { return continuation }
        return nil
    }

    /// The session closed: every waiter, to be released.
    mutating func closeAll() -> [CheckedContinuation<Envelope, any Error>] {
        defer { slots = [:] }
        return slots.values.compactMap { if case .waiting(let continuation) = $0 { continuation } else { nil } }
    }
}
