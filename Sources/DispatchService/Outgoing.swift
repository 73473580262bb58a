import Wire

/// What the dispatch desk wants sent: a message to one session, or an event on the bus.
public enum Outgoing: Sendable {
    /// To the session at `peer` (a ROUTER identity); `inReplyTo` names the request answered.
    case toPeer(peer: [UInt8], body: Envelope.OneOf_Body, inReplyTo: String)
    /// On the event bus under `topic`.
    case publish(topic: String, event: Wire.DispatchEvent)
    /// Dispatch's whole state in chunks, to the session at `peer` (which may ask for it).
    case snapshot(peer: [UInt8], inReplyTo: String)
}
