import Wire

/// The board, on an actor: the bus reader writes, the reporter reads.
public actor BoardKeeper {
    private var board = MonitorBoard()
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

    /// Takes a chunk of dispatch process `process`'s snapshot ("dispatch", "dispatch-K"); the
    /// last one applies them all.
    public func snapshot(_ chunk: SnapshotChunk, from process: String = "dispatch") {
        heardFromTheRun = true
        _ = board.apply(chunk: chunk, sender: process + "-bus")
    }

    public func report() -> MonitorReport { MonitorReport(board) }
}
