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
}
