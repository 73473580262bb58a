import GRDB
import Wire

/// Writes a run's bus into SQLite (`run.sqlite`, schema in ``RunSchema`` and docs/RECORDING.md):
/// a transaction per batch of envelopes, on GRDB's own queue (no Swift task thread blocks).
/// An envelope seen already (same sender, same life, same sequence number) is not recorded again.
public actor RunRecorder {
    private let database: DatabaseQueue
    private var tracker = SequenceTracker()
    private var generations: [String: Int] = [:]
    /// Envelopes written (of the kinds the database keeps), repeats left out (seen twice on the
    /// bus), and envelopes the database held already (a recording imported again).
    public private(set) var recorded = 0
    public private(set) var repeats = 0
    public private(set) var alreadyThere = 0

    /// Opens (or creates) the database at `path`, in WAL mode: anyone may read it while the run
    /// is recorded (a reader in the default mode would make the recorder's writes fail).
    public init(path: String) throws(RecordingError) {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try RunSchema.migrator.migrate(database)
        } catch let error as DatabaseError {
            // SQLite's words, with the file they are about (not its result code).
            throw RecordingError(description: "\(path): \(error.message ?? "cannot be opened as a SQLite database")")
        } catch {
            throw RecordingError(description: "\(path): cannot be opened as a SQLite database")
        }
    }

    /// Notes facts about the run (topology, speed, …) in the `run` table.
    public func describe(_ facts: [String: String]) async throws {
        try await database.write { db in
            for (key, value) in facts {
                try db.execute(sql: "INSERT OR REPLACE INTO run (key, value) VALUES (?, ?)", arguments: [key, value])
            }
        }
    }

    /// Records a batch of bus envelopes in one transaction.
    public func record(_ envelopes: [Envelope]) async throws {
        var rows: [RecordedRow] = []
        for envelope in envelopes {
            switch tracker.observe(sender: envelope.sender, sequence: envelope.sequence) {
            case .duplicate:
                repeats += 1
                continue
            case .restarted:
                generations[envelope.sender, default: 0] += 1
            default:
                break
            }
            rows.append(RecordedRow(generation: generations[envelope.sender] ?? 0, envelope: envelope))
        }
        guard !rows.isEmpty else { return }
        let batch = rows
        let outcomes = try await database.write { db in try batch.map { try $0.insert(into: db) } }
        recorded += outcomes.filter { $0 == .inserted }.count
        alreadyThere += outcomes.filter { $0 == .alreadyThere }.count
    }

    /// Runs a read-only query, for reports: each row as column name and value text.
    public func query(_ sql: String) async throws -> [[(column: String, value: String)]] {
        try await database.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                zip(row.columnNames, row.databaseValues).map { name, value in
                    switch value.storage {
                    case .null: (name, "")
                    case .int64(let number): (name, "\(number)")
                    case .double(let number): (name, "\(number)")
                    case .string(let string): (name, string)
                    case .blob(let data): (name, "<\(data.count) bytes>")
                    }
                }
            }
        }
    }
}

/// A database the recorder cannot use, naming the file and the reason.
public struct RecordingError: Error, CustomStringConvertible {
    public let description: String
}
