import SimulatedTime

/// A participant's inbox in virtual time: holds what arrives, counts it by sender life, and hands
/// out what is due before a window's end in the fixed order of `InputOrder`.
///
/// What counts is the unbroken run of link numbers from each sender: a message the sender sent in
/// the window in progress may overtake an older one, and must not stand in for it.
public struct WindowInbox<Payload: Sendable>: Sendable {
    private var held: [TimedInput<Payload>] = []
    /// By sender life: every link number up to this one has arrived (what the keeper's
    /// expectations are compared with).
    public private(set) var received: [String: UInt64] = [:]
    /// By sender life: link numbers arrived beyond the unbroken run.
    private var ahead: [String: Set<UInt64>] = [:]
    /// Copies of messages already arrived (a duplicating network): handed out, not counted.
    public private(set) var duplicates = 0
    /// Everything before this time has been handed out.
    public private(set) var handedOutTo = SimTime.zero
    /// Messages that arrived due before what was already handed out: impossible while every
    /// participant keeps the protocol, possible after a crash. They are handed out at once.
    public private(set) var late = 0

    public init() {}

    /// Takes in a message that arrived.
    public mutating func arrive(_ input: TimedInput<Payload>) {
        count(input)
        var input = input
        if input.time < handedOutTo {
            late += 1
            input.time = handedOutTo
        }
        held.append(input)
    }

    private mutating func count(_ input: TimedInput<Payload>) {
        let run = received[input.sender] ?? 0
        // The usual case: the next on its link, with nothing from anyone arrived out of turn.
        if input.link == run + 1, ahead.isEmpty {
            received[input.sender] = input.link
            return
        }
        guard input.link > run, !(ahead[input.sender]?.contains(input.link) ?? false) else {
            duplicates += 1
            return
        }
        guard input.link == run + 1 else {
            ahead[input.sender, default: []].insert(input.link)
            return
        }
        var top = input.link
        while ahead[input.sender]?.remove(top + 1) != nil { top += 1 }
        if ahead[input.sender]?.isEmpty == true { ahead[input.sender] = nil }
        received[input.sender] = top
    }

    /// Whether every message in `expected` (by sender life, in all) has arrived.
    public func hasReceived(_ expected: [String: UInt64]) -> Bool {
        for (sender, count) in expected where received[sender] ?? 0 < count { return false }
        return true
    }

    /// The messages due before `end`, in order; afterwards nothing before `end` is held.
    public mutating func take(before end: SimTime) -> [TimedInput<Payload>] {
        handedOutTo = max(handedOutTo, end)
        // Mostly everything held is due and came in order (a host hears from one dispatch, which
        // sends in order): then it is handed out as it is, nothing moved or copied.
        if isAllDueInOrder(before: end) {
            defer { held = [] }
            return held
        }
        // The due ones moved to the end; their order found by sorting their places; each then
        // copied once, in that order.
        let split = held.partition { $0.time < end }
        var order: [InputOrder] = []
        order.reserveCapacity(held.count - split)
        for position in split..<held.count { order.append(InputOrder(held[position], position: position)) }
        order.sort()
        var due: [TimedInput<Payload>] = []
        due.reserveCapacity(order.count)
        for place in order { due.append(held[place.position]) }
        held.removeSubrange(split...)
        return due
    }

    /// Whether every input held is due before `end` and they are held in ``InputOrder``'s order
    /// (a plain loop over a range of integers: the closures of `allSatisfy`, and `indices`, went
    /// unspecialized across modules).
    private func isAllDueInOrder(before end: SimTime) -> Bool {
        for index in 0..<held.count {
            guard held[index].time < end else { return false }
            if index > 0, InputOrder.precedes(held[index], held[index - 1]) { return false }
        }
        return true
    }

    /// When the earliest message held is due.
    public var next: SimTime? { held.lazy.map(\.time).min() }

    /// When the earliest message held is due, of those within `expected` (by sender life: link
    /// numbers up to these). A message beyond them was sent in the window being done, and may
    /// have arrived by now or not, as the scheduler had it: its sender's report names its
    /// delivery, and a report that named it too only sometimes would make what the report says
    /// depend on timing.
    public func next(within expected: [String: UInt64]) -> SimTime? {
        held.lazy.filter { $0.link <= expected[$0.sender] ?? 0 }.map(\.time).min()
    }

    /// How many messages are held.
    public var count: Int { held.count }
}
