/// When dispatch snapshots its state (with a journal): once `everyEntries` entries were journaled
/// since the last snapshot and enough wall time has passed — at least `minimumGap`, and long
/// enough that encoding (which grows with the run) takes no more than `cpuShare` of a core. A
/// restart replays at most about that many entries after restoring the snapshot, so recovery no
/// longer grows with the run (docs/PERFORMANCE.md).
public struct SnapshotPolicy: Sendable {
    public var everyEntries: Int
    public var minimumGap: Duration
    public var cpuShare: Double

    public init(everyEntries: Int = 10_000, minimumGap: Duration = .seconds(1), cpuShare: Double = 0.2) {
        precondition(everyEntries > 0, "SnapshotPolicy: a snapshot every so many entries, at least one")
        precondition(cpuShare > 0, "SnapshotPolicy: some share of a core for snapshots")
        self.everyEntries = everyEntries
        self.minimumGap = minimumGap
        self.cpuShare = cpuShare
    }

    /// The wall time to leave after a snapshot whose encoding and writing took `seconds`.
    public func gap(after seconds: Double) -> Duration { max(minimumGap, .seconds(seconds / cpuShare)) }
}

/// Snapshots written by a dispatch process so far.
public struct SnapshotCounts: Sendable {
    public var count = 0
    public var failures = 0
    /// The last one's file size, and how long encoding and writing it took (off the actor).
    public var lastBytes = 0
    public var lastSeconds = 0.0
    public var lastFailure: String?
}
