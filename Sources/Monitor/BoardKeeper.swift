import Wire

/// The board, on an actor: the bus reader writes, the reporter reads.
public actor BoardKeeper {
    private var board = MonitorBoard()
    private var snapshotParts: [Wire.DispatchEvent] = []
    /// The dispatch processes whose snapshots the board holds.
    private var snapshotsFrom: Set<String> = []
    public private(set) var stopped = false
    /// Whether anything has come from the run yet: a snapshot from dispatch or a bus event.
    public private(set) var heardFromTheRun = false

    public init() {}

    /// The board as it is now.
    public var current: MonitorBoard { board }

    public func stop() { stopped = true }

    public func apply(_ envelopes: [Envelope]) {
        if !envelopes.isEmpty { heardFromTheRun = true }
        for envelope in envelopes { board.apply(envelope) }
        board.forgetOld()
    }

    /// Collects a snapshot's chunks; the last one applies them all. A sharded dispatch sends one
    /// snapshot per shard, one after the other: `from` is the shard's process ("dispatch-K"),
    /// and every shard's after the first adds to the board.
    public func snapshot(_ chunk: SnapshotChunk, from process: String = "dispatch") {
        heardFromTheRun = true
        snapshotParts += chunk.state
        guard chunk.last else { return }
        board.apply(
            snapshot: snapshotParts, sequenceAt: chunk.sequenceAt, totals: chunk.totals, sender: process + "-bus",
            merging: snapshotsFrom.contains { $0 != process })
        snapshotsFrom.insert(process)
        snapshotParts = []
    }

    public func report() -> MonitorReport { MonitorReport(board) }
}
