import SimulatedTime

/// A message as a participant's inbox holds it: when it is to be handled (its send time plus the
/// latency), who sent it and with which sequence number (the order among equals), and what it is.
public struct TimedInput<Payload: Sendable>: Sendable {
    /// Simulated time at which the message is delivered.
    public var time: SimTime
    /// The sender's life (``ParticipantID/senderKey``).
    public var sender: String
    /// The sender's sequence number for the message.
    public var sequence: UInt64
    /// The message's number on the link from its sender to this receiver: 1, 2, 3… with no gaps,
    /// so the receiver knows when it has everything the sender sent it up to a count.
    public var link: UInt64
    public var payload: Payload

    public init(time: SimTime, sender: String, sequence: UInt64, link: UInt64, payload: Payload) {
        self.time = time
        self.sender = sender
        self.sequence = sequence
        self.link = link
        self.payload = payload
    }

    /// The fixed order in which inputs are handled: time, then sender, then sequence (then link
    /// number, which tells apart the copies of one message a duplicating network made) — never
    /// the order in which they happened to arrive.
    public static func precedes(_ a: TimedInput, _ b: TimedInput) -> Bool {
        InputOrder(a, position: 0) < InputOrder(b, position: 0)
    }
}

/// Where an input goes in the order of ``TimedInput/precedes(_:_:)``, without its payload: what
/// the inbox sorts, since sorting the inputs themselves copied each one (its sender's name and
/// payload retained and released) at every step.
struct InputOrder: Comparable {
    let time: Int64
    let sender: String
    let sequence: UInt64
    let link: UInt64
    /// Where the input is held (not part of the order).
    let position: Int

    init<Payload>(_ input: TimedInput<Payload>, position: Int) {
        time = input.time.wireMilliseconds
        sender = input.sender
        sequence = input.sequence
        link = input.link
        self.position = position
    }

    static func < (a: InputOrder, b: InputOrder) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.sender != b.sender { return a.sender < b.sender }
        if a.sequence != b.sequence { return a.sequence < b.sequence }
        return a.link < b.link
    }

    static func == (a: InputOrder, b: InputOrder) -> Bool {
        a.time == b.time && a.sender == b.sender && a.sequence == b.sequence && a.link == b.link
    }
}
