import SimulatedTime

/// The fixed order in which inputs are handled: time, then sender, then sequence (then link
/// number, which tells apart the copies of one message a duplicating network made) — never the
/// order in which they happened to arrive.
///
/// An input's place in that order without its payload: what the inbox sorts, since sorting the
/// inputs themselves copied each one (its sender's name and payload retained and released) at
/// every step.
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
        (a.time, a.sender, a.sequence, a.link) < (b.time, b.sender, b.sequence, b.link)
    }

    /// Whether input `a` comes before input `b` in this order, read in place (an `InputOrder`
    /// of each would retain its sender).
    static func precedes<Payload>(_ a: TimedInput<Payload>, _ b: TimedInput<Payload>) -> Bool {
        (a.time.wireMilliseconds, a.sender, a.sequence, a.link) < (b.time.wireMilliseconds, b.sender, b.sequence, b.link)
    }

    static func == (a: InputOrder, b: InputOrder) -> Bool {
        a.time == b.time && a.sender == b.sender && a.sequence == b.sequence && a.link == b.link
    }
}
