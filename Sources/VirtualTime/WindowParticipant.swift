import SimulatedTime

/// A participant's side of virtual time: takes the keeper's openings and the messages that arrive,
/// says when a window can be worked on, stamps what the participant sends with its delivery time
/// and counts it, and writes the report. The process does the I/O and runs its own timers.
public struct WindowParticipant<Payload: Sendable>: Sendable {
    /// What the participant should do now.
    public enum Step: Sendable, Equatable {
        /// Nothing yet: no window is open, or messages it expects have not all arrived.
        case wait
        /// Work through this window (take the inputs, run the timers before its end), then ``finish(nextTimer:busy:)``.
        case work(WindowOpening)
        /// Take in what was expected and report at once without handling anything (a drain).
        case drain(WindowOpening)
        /// The keeper asked again for a window already done: send this report again.
        case report(WindowReport)
    }

    public let id: ParticipantID
    public let latency: SimDuration
    public private(set) var inbox = WindowInbox<Payload>()
    private var sent: [String: UInt64] = [:]
    /// The earliest delivery of what was sent since the last report, by receiver name.
    private var deliveries: [String: SimTime] = [:]
    private var pending: WindowOpening?
    private var working: WindowOpening?
    private var lastReport: WindowReport?

    public init(id: ParticipantID, latency: SimDuration) {
        self.id = id
        self.latency = latency
    }

    /// The window being worked on, if any.
    public var window: Window? { working?.window }

    /// The keeper opened a window (or asked again for one).
    public mutating func opened(_ opening: WindowOpening) -> Step {
        if let lastReport, lastReport.window == opening.window.index { return .report(lastReport) }
        if let lastReport, lastReport.window > opening.window.index { return .wait }
        if let working, working.window.index >= opening.window.index { return .wait }
        pending = opening
        return ready()
    }

    /// A message arrived, sent at `sentAt` by `sender` (a life) with its `sequence` and its number
    /// on the `link` to this participant.
    public mutating func arrived(
        _ payload: Payload, sentAt: SimTime, from sender: String, sequence: UInt64, link: UInt64
    ) -> Step {
        inbox.arrive(
            TimedInput(time: deliveryTime(of: sentAt), sender: sender, sequence: sequence, link: link, payload: payload))
        return ready()
    }

    /// The inputs of the window being worked on, in order. Call once per window.
    public mutating func inputs() -> [TimedInput<Payload>] {
        guard let working else { return [] }
        return inbox.take(before: working.window.end)
    }

    /// Counts a message sent to `receiver` (by name) at simulated `time`: returns its number on
    /// the link to the receiver's current life (to send with it), when it will be delivered, and
    /// the life it is addressed to (a receiver drops what is addressed to another of its lives).
    /// Everything sent in a window is delivered after it.
    public mutating func send(to receiver: String, at time: SimTime) -> (link: UInt64, delivery: SimTime, life: UInt32) {
        send(to: receiver, life: working?.incarnations[receiver] ?? 1, at: time)
    }

    /// Counts a message sent to a given life of `receiver` (a reply to the life that asked, even
    /// if that life has since ended: then nobody waits for it).
    public mutating func send(
        to receiver: String, life: UInt32, at time: SimTime
    ) -> (link: UInt64, delivery: SimTime, life: UInt32) {
        // One look-up in each table (a message's count and its receiver's delivery, in place).
        let link = Self.increment(&sent[ParticipantID(receiver, incarnation: life).senderKey, default: 0])
        let delivery = deliveryTime(of: time)
        Self.lower(&deliveries[receiver, default: delivery], to: delivery)
        if let working {
            assert(delivery >= working.window.end, "\(id) sent at \(time), inside no window's lookahead: \(working.window)")
        }
        return (link, delivery, life)
    }

    private static func increment(_ count: inout UInt64) -> UInt64 {
        count += 1
        return count
    }

    private static func lower(_ time: inout SimTime, to other: SimTime) {
        if other < time { time = other }
    }

    /// Done with the window (or the drain): the report for the keeper. `nextTimer` is the
    /// participant's earliest timer after the window; `leaving`, that this is the life's last
    /// report (``WindowReport/leaving``).
    public mutating func finish(nextTimer: SimTime?, busy: Duration = .zero, leaving: Bool = false) -> WindowReport? {
        guard let opening = working ?? pending else { return nil }
        let expected = opening.expectations(of: id.name)
        let own = [nextTimer, inbox.next(within: expected)].compactMap { $0 }.min()
        let next = [own, deliveries.values.min()].compactMap { $0 }.min()
        let report = WindowReport(
            window: opening.window.index, participant: id, sent: sent, received: inbox.received, next: next, busy: busy,
            late: UInt64(inbox.late), leaving: leaving, deliveries: deliveries, own: own)
        deliveries = [:]
        working = nil
        pending = nil
        lastReport = report
        return report
    }

    private func deliveryTime(of sentAt: SimTime) -> SimTime {
        SimTime(wireMilliseconds: sentAt.wireMilliseconds + latency.wireMilliseconds)
    }

    private mutating func ready() -> Step {
        guard working == nil, let pending, inbox.hasReceived(pending.expectations(of: id.name)) else { return .wait }
        switch pending.purpose {
        case .advance:
            working = pending
            self.pending = nil
            return .work(pending)
        case .drain:
            return .drain(pending)
        }
    }
}
