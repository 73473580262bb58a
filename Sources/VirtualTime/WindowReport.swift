import SimulatedTime

/// What a participant tells the keeper when it is done with a window.
public struct WindowReport: Hashable, Sendable {
    /// The window done (its index).
    public var window: UInt64
    public var participant: ParticipantID
    /// Messages sent in this life so far, by receiver life (``ParticipantID/senderKey``; cumulative).
    public var sent: [String: UInt64]
    /// Messages received in this life so far, by sender life (cumulative).
    public var received: [String: UInt64]
    /// The earliest simulated time at which this participant has something to do: its next timer,
    /// the earliest input it holds, or the earliest delivery of what it sent. `nil`: nothing.
    public var next: SimTime?
    /// Wall time the participant spent on the window, from its opening to this report.
    public var busy: Duration
    /// Messages this life received due before what it had already handled (cumulative; see
    /// ``WindowInbox/late``).
    public var late: UInt64
    /// This life's last report: the participant leaves the run once the window is done (a rider
    /// process whose apps have all finished), and no later window waits for it. Said in the
    /// report, not by the process's exit, so that where the run ends does not depend on when the
    /// coordinator sees the exit.
    public var leaving: Bool
    /// The earliest delivery of what was sent in the window (or since the last report), by
    /// receiver name: the keeper wakes a receiver that may sit out windows no later than that.
    public var deliveries: [String: SimTime]
    /// When something of the participant's own is next due (a timer, an input it holds): ``next``
    /// without the deliveries of what it sent, which are its receivers' business. What decides
    /// whether a participant that may sit out windows is sent the next one.
    public var own: SimTime?

    /// A report whose ``next`` is all its own (``own`` equals ``next``): a participant that sent
    /// nothing still due.
    public init(
        window: UInt64, participant: ParticipantID, sent: [String: UInt64] = [:], received: [String: UInt64] = [:],
        next: SimTime?, busy: Duration = .zero, late: UInt64 = 0, leaving: Bool = false,
        deliveries: [String: SimTime] = [:]
    ) {
        self.init(
            window: window, participant: participant, sent: sent, received: received, next: next, busy: busy, late: late,
            leaving: leaving, deliveries: deliveries, own: next)
    }

    /// A report that says apart what of ``next`` is its own (`own`; `nil`: nothing is).
    public init(
        window: UInt64, participant: ParticipantID, sent: [String: UInt64] = [:], received: [String: UInt64] = [:],
        next: SimTime?, busy: Duration = .zero, late: UInt64 = 0, leaving: Bool = false,
        deliveries: [String: SimTime] = [:], own: SimTime?
    ) {
        self.window = window
        self.participant = participant
        self.sent = sent
        self.received = received
        self.next = next
        self.busy = busy
        self.late = late
        self.leaving = leaving
        self.deliveries = deliveries
        self.own = own
    }
}
