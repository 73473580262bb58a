/// Where a restarted dispatch starts from: its journal and the newest whole snapshot of it (with
/// the newer ones passed over, and why). Finding and decoding the snapshot needs no city, so a
/// process does it while it loads its roads and routers.
public struct RestorePoint: Sendable {
    public let journal: DispatchJournal.Contents
    let snapshot: DispatchSnapshot?
    /// The snapshot's file, if one is used.
    public let snapshotPath: String?
    /// Newer snapshot files passed over, each with why.
    public let skipped: [String]
    /// How long reading the journal and finding and decoding the snapshot took.
    public private(set) var loadSeconds = 0.0

    /// The journal alone, or with its newest whole snapshot from `snapshots`.
    init(journal: DispatchJournal.Contents, snapshots: SnapshotStore?) {
        self.journal = journal
        let newest = snapshots?.newest(for: journal)
        snapshot = newest?.found?.snapshot
        snapshotPath = newest?.found?.path
        skipped = newest?.skipped.map(\.description) ?? []
    }

    /// Reads the journal at `path` and, if `snapshots`, the newest whole snapshot beside it.
    public static func load(journal path: String, snapshots: Bool) throws(JournalError) -> RestorePoint {
        let began = ContinuousClock.now
        var point = RestorePoint(
            journal: try DispatchJournal.read(path: path), snapshots: snapshots ? SnapshotStore(journalPath: path) : nil)
        point.loadSeconds = (ContinuousClock.now - began) / .seconds(1)
        return point
    }
}
