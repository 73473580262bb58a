/// When dispatch snapshots its state (with a journal): once `everyEntries` entries were journaled
/// since the last snapshot and at least `minimumGap` of wall time has passed. A restart replays
/// at most about that many entries after restoring the snapshot, so recovery no longer grows
/// with the run; the gap bounds what encoding costs a busy dispatch (docs/PERFORMANCE.md).
public struct SnapshotPolicy: Sendable {
    public var everyEntries: Int
    public var minimumGap: Duration

    public init(everyEntries: Int = 5_000, minimumGap: Duration = .seconds(1)) {
        precondition(everyEntries > 0, "SnapshotPolicy: a snapshot every so many entries, at least one")
        self.everyEntries = everyEntries
        self.minimumGap = minimumGap
    }
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
