import DequeModule
import Wire

/// The requests waiting for their replies, by message id: a reply may come before its requester
/// waits for it (kept until asked for), while it waits (handed over), or after it gave up
/// (dropped, or — for a message that answers nothing — passed on as incoming). Each attempt of
/// a request has a deadline; one whose deadline passes unanswered is given up on
/// (``expire(now:)``), and its requester, waiting or not yet, is told so.
struct ReplyBook {
    /// A requester waiting for its reply: resumed with it, or with `nil` when its time ran out.
    typealias Waiter = CheckedContinuation<Envelope?, any Error>

    private enum State {
        case expected
        case waiting(Waiter)
        case arrived(Envelope)
    }

    /// One attempt's slot: its state, and which attempt it is (a deadline of an earlier attempt
    /// of the same message id ends nothing).
    private struct Slot {
        var state: State
        let attempt: UInt64
    }

    /// What became of an envelope that arrived.
    enum Delivery {
        /// A requester was waiting: resume it with the envelope.
        case resume(Waiter, Envelope)
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
        /// Given up on already (its time ran out before the requester got here).
        case abandoned
    }

    private var slots: [String: Slot] = [:]
    private var attempts: UInt64 = 0
    /// Deadlines in the order they were set (a session's timeout is one duration, so that is
    /// their order in time too; an out-of-order one only waits for those before it).
    private var deadlines = Deque<(at: ContinuousClock.Instant, messageID: String, attempt: UInt64)>()

    /// How many requests are waiting for a reply.
    var count: Int { slots.count }

    /// The first deadline still to come up, if any request is timed.
    var earliestDeadline: ContinuousClock.Instant? { deadlines.first?.at }

    /// A request with this message id is about to be sent (an attempt of its own, each time).
    mutating func expect(_ messageID: String) {
        attempts += 1
        slots[messageID] = Slot(state: .expected, attempt: attempts)
    }

    /// The request `messageID` was sent: it is given up on if unanswered at `deadline`.
    mutating func time(_ messageID: String, until deadline: ContinuousClock.Instant) {
        guard let slot = slots[messageID] else { return }
        deadlines.append((deadline, messageID, slot.attempt))
    }

    /// Whether a reply to `messageID` is still wanted.
    func isExpected(_ messageID: String) -> Bool { slots[messageID] != nil }

    mutating func deliver(_ envelope: Envelope) -> Delivery {
        guard let slot = slots[envelope.inReplyTo] else { return envelope.inReplyTo.isEmpty ? .incoming(envelope) : .late }
        switch slot.state {
        case .expected:
            slots[envelope.inReplyTo]?.state = .arrived(envelope)
            return .kept
        case .waiting(let waiter):
            slots[envelope.inReplyTo] = nil
            return .resume(waiter, envelope)
        case .arrived:
            return .late
        }
    }

    mutating func claim(_ messageID: String) -> Claim {
        switch slots[messageID]?.state {
        case .arrived(let envelope)?:
            slots[messageID] = nil
            return .arrived(envelope)
        case .expected?: return .pending
        case .waiting?, nil: return .abandoned
        }
    }

    /// The requester waits for the reply to `messageID` (after ``claim(_:)`` said `.pending`).
    mutating func wait(for messageID: String, _ waiter: Waiter) {
        slots[messageID]?.state = .waiting(waiter)
    }

    /// Gives up on the requests whose deadline is `now` or past and that have no reply: their
    /// waiters, to resume with `nil`. One that has not started waiting learns it when it claims.
    mutating func expire(now: ContinuousClock.Instant) -> [Waiter] {
        var waiters: [Waiter] = []
        while let first = deadlines.first, first.at <= now {
            deadlines.removeFirst()
            guard let slot = slots[first.messageID], slot.attempt == first.attempt else { continue }
            switch slot.state {
            case .expected: slots[first.messageID] = nil
            case .waiting(let waiter):
                slots[first.messageID] = nil
                waiters.append(waiter)
            case .arrived: continue
            }
        }
        return waiters
    }

    /// Gives up on a reply: a waiter to release, if one was waiting; a late reply will be dropped.
    mutating func abandon(_ messageID: String) -> Waiter? {
        defer { slots[messageID] = nil }
        if case .waiting(let waiter)? = slots[messageID]?.state { return waiter }
        return nil
    }

    /// The session closed: every waiter, to be released.
    mutating func closeAll() -> [Waiter] {
        defer {
            slots = [:]
            deadlines = []
        }
        return slots.values.compactMap { if case .waiting(let waiter) = $0.state { waiter } else { nil } }
    }
}
