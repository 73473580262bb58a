import Wire

/// Dispatch's whole state at one point of its journal: restored, then the journal's entries after
/// that point replayed, it rebuilds the same dispatch as a replay of the whole journal, in a time
/// that does not grow with the run (docs/ARCHITECTURE.md, "Snapshots").
struct DispatchSnapshot: Codable, Sendable {
    /// The form of ``DispatchSnapshot`` and every type in it. Bump it with any change to them: a
    /// snapshot of another form is passed over (the journal alone still rebuilds everything).
    /// 3: the desk's matching across borders (`DispatchDesk.State.border`). 4: request records
    /// in their flat form (`RequestRecord+Coding.swift`). 5: remembered replies in two generations
    /// (`ReplyMemory`).
    static let formatVersion: UInt32 = 5

    /// The journal it is current to: that journal's clock start (so a snapshot is never applied
    /// to another run's journal), how many of its entries were acted on and where they end.
    var journalOrigin: Int64
    var journalEntries: Int
    var journalBytes: Int
    /// The latest simulated time acted at.
    var time: Double
    var stampers: Stampers
    var malformed: WireErrorCounts
    var desk: DispatchDesk.State

    /// Requests taken so far.
    var requestCount: Int { desk.engine.requestCount }
}

extension DispatchCore {
    /// The core's state for a snapshot (cheap: collections are shared until changed).
    func snapshot(journalOrigin: Int64, journalEntries: Int, journalBytes: Int, time: Double) -> DispatchSnapshot {
        DispatchSnapshot(
            journalOrigin: journalOrigin, journalEntries: journalEntries, journalBytes: journalBytes, time: time,
            stampers: stampers, malformed: malformed, desk: desk.state)
    }

    /// The stored properties that are not the core's state: the desk (its own snapshot) and how
    /// late messages were, a measure of the process that restarts with it.
    static let notState: Set<String> = ["desk", "lateness"]

    /// Puts a freshly made core (of the same topology) in a snapshot's state.
    func restore(_ snapshot: DispatchSnapshot) {
        // Status reports are numbered afresh by each process (they are not journaled either).
        let status = stampers.status
        stampers = snapshot.stampers
        stampers.status = status
        malformed = snapshot.malformed
        desk.restore(snapshot.desk)
    }
}
