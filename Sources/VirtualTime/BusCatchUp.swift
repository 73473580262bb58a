/// What the keeper holds back until the bus has caught up with the window link.
///
/// Reports come to the keeper over the window link, the quick way, and it opens the next window
/// at once. What a participant publishes on the bus (dispatch's events: the recording) comes the
/// slow way, through the bus proxy, with a copy of the participant's report after it. So writing
/// the events before a window's start, killing a process and ending the run — each a `Deed` —
/// wait until the bus has brought the copies of every report made directly before the deed was
/// asked for (or the reporting life is over: a dead life publishes nothing more). Deeds come out
/// in the order they were asked for.
///
/// A state machine like ``WindowKeeper``: events in, deeds out, no sockets or clocks.
public struct BusCatchUp<Deed: Sendable>: Sendable {
    private struct Waiting: Sendable {
        var deed: Deed
        /// The window whose bus copy each life's report must have arrived for.
        var needs: [ParticipantID: UInt64]
    }

    /// The last window each life reported over the link with a copy on the bus.
    private var reported: [ParticipantID: UInt64] = [:]
    /// The last window whose copy the bus brought, by life.
    private var seen: [ParticipantID: UInt64] = [:]
    /// For each participant, the life it is in: its earlier lives' copies never come.
    private var lives: [String: UInt32] = [:]
    private var queue: [Waiting] = []

    public init() {}

    /// Whether a deed is waiting for the bus.
    public var isWaiting: Bool { !queue.isEmpty }

    /// A report came over the window link saying its copy went out on the bus: deeds asked for
    /// from now on wait for that copy.
    public mutating func reportedDirectly(_ participant: ParticipantID, window: UInt64) {
        reported[participant] = max(reported[participant] ?? 0, window)
    }

    /// The bus brought the copy of `participant`'s report of `window`.
    /// - Returns: the deeds now free to be done, in order.
    public mutating func seenOnBus(_ participant: ParticipantID, window: UInt64) -> [Deed] {
        seen[participant] = max(seen[participant] ?? 0, window)
        return release()
    }

    /// A participant's new life began: its earlier lives will publish nothing more.
    /// - Returns: the deeds now free to be done, in order.
    public mutating func lifeBegan(_ participant: ParticipantID) -> [Deed] {
        lives[participant.name] = max(lives[participant.name] ?? 0, participant.incarnation)
        for old in reported.keys where old.name == participant.name && old.incarnation < participant.incarnation {
            reported[old] = nil
            seen[old] = nil
        }
        return release()
    }

    /// Asks for `deed` once the bus has caught up with every report made directly so far.
    /// - Returns: the deeds now free to be done (this one too, if nothing is missing), in order.
    public mutating func after(_ deed: Deed) -> [Deed] {
        let needs = reported.filter { id, window in (seen[id] ?? 0) < window }
        queue.append(Waiting(deed: deed, needs: needs))
        return release()
    }

    /// Gives up waiting for the first deed's copies (one was lost: a process died after its
    /// report went over the link, before its copy on the bus): frees it and what it held up.
    public mutating func giveUp() -> [Deed] {
        guard !queue.isEmpty else { return [] }
        queue[0].needs = [:]
        return release()
    }

    private func isMet(_ needs: [ParticipantID: UInt64]) -> Bool {
        needs.allSatisfy { id, window in
            (seen[id] ?? 0) >= window || (lives[id.name] ?? 0) > id.incarnation
        }
    }

    private mutating func release() -> [Deed] {
        var free: [Deed] = []
        while let first = queue.first, isMet(first.needs) {
            free.append(first.deed)
            queue.removeFirst()
        }
        return free
    }
}
