import City
import Foundation

/// Dispatch's snapshots on disk, beside its journal: `<journal>.snapshot-<entries>`, the newest
/// two kept. Each file is the magic bytes `RCS1`, the format version (32 bits), the payload's
/// length (64 bits) and CRC-32 (32 bits), all little-endian, then the payload: a
/// ``DispatchSnapshot`` in ``CompactEncoder``'s form.
///
/// A file is written under a temporary name and renamed into place, so a process killed while
/// writing leaves the previous snapshot whole; a file damaged any other way fails its length or
/// checksum and the one before it is used (or, with none, the whole journal is replayed).
public struct SnapshotStore: Sendable {
    static let magic: [UInt8] = Array("RCS1".utf8)
    static let headerBytes = 20
    /// How many snapshots are kept: the newest, and the one to fall back to.
    static let kept = 2

    public let journalPath: String

    public init(journalPath: String) {
        self.journalPath = journalPath
    }

    private var directory: String {
        (journalPath as NSString).deletingLastPathComponent.isEmpty ? "." : (journalPath as NSString).deletingLastPathComponent
    }
    private var prefix: String { (journalPath as NSString).lastPathComponent + ".snapshot-" }

    /// The snapshot files there are, newest (most entries) first.
    func files() -> [(path: String, entries: Int)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name in
            guard name.hasPrefix(prefix), let entries = Int(name.dropFirst(prefix.count)) else { return nil }
            return ((directory as NSString).appendingPathComponent(name), entries)
        }.sorted { $0.entries > $1.entries }
    }

    /// A snapshot's file bytes: header and payload.
    /// - Parameter sizeHint: about how many bytes to expect (the last snapshot's size): the buffer
    ///   is allocated once at that size rather than grown by doubling, each step a copy of a
    ///   buffer of up to tens of megabytes into fresh pages.
    static func fileBytes(of snapshot: DispatchSnapshot, sizeHint: Int = 0) throws -> [UInt8] {
        // The payload is encoded straight after room for the header, which is filled in after.
        let sink = CompactSink()
        sink.bytes.reserveCapacity(headerBytes + max(0, sizeHint))
        sink.bytes.append(contentsOf: magic)
        sink.bytes.append(contentsOf: repeatElement(0, count: headerBytes - magic.count))
        try sink.write(snapshot)
        var header: [UInt8] = []
        withUnsafeBytes(of: DispatchSnapshot.formatVersion.littleEndian) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(sink.bytes.count - headerBytes).littleEndian) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: checksum(sink.bytes[headerBytes...]).littleEndian) { header.append(contentsOf: $0) }
        sink.bytes.replaceSubrange(magic.count..<headerBytes, with: header)
        return sink.bytes
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 { CRC32.of(bytes) }

    /// Writes `snapshot` (encoding it here: call off dispatch's actor) and removes all but the
    /// newest ``kept``.
    /// - Parameter sizeHint: about how many bytes to expect (see ``fileBytes(of:sizeHint:)``).
    /// - Returns: the file written and its size.
    @discardableResult
    func write(_ snapshot: DispatchSnapshot, sizeHint: Int = 0) throws -> (path: String, bytes: Int) {
        let bytes = try Self.fileBytes(of: snapshot, sizeHint: sizeHint)
        let path = (directory as NSString).appendingPathComponent(prefix + String(snapshot.journalEntries))
        // Written from the buffer itself: `Data(bytes)` would copy it whole first.
        try bytes.withUnsafeBytes { raw in
            try Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress!), count: raw.count, deallocator: .none)
                .write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        for old in files().dropFirst(Self.kept) { try? FileManager.default.removeItem(atPath: old.path) }
        return (path, bytes.count)
    }

    /// Why a snapshot file was passed over.
    public struct Skipped: Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The newest snapshot that is whole and belongs to `journal` (same clock start, no more
    /// entries than it holds), with the files passed over and why.
    func newest(for journal: DispatchJournal.Contents) -> (found: (snapshot: DispatchSnapshot, path: String)?, skipped: [Skipped])
    {
        var skipped: [Skipped] = []
        guard case .started(let origin, _)? = journal.first else { return (nil, skipped) }
        for file in files() {
            do {
                let snapshot = try Self.read(file.path)
                guard snapshot.journalOrigin == origin else { throw SnapshotError("it belongs to another run's journal") }
                guard snapshot.journalEntries <= journal.count, snapshot.journalBytes <= journal.validBytes else {
                    throw SnapshotError(
                        "it is current to \(snapshot.journalEntries) entries, the journal holds \(journal.count)")
                }
                return ((snapshot, file.path), skipped)
            } catch {
                skipped.append(Skipped(path: file.path, reason: "\(error)"))
            }
        }
        return (nil, skipped)
    }

    /// The size of the file at `path`.
    static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// The snapshot in the file at `path`, or why it cannot be used.
    static func read(_ path: String) throws -> DispatchSnapshot {
        guard let data = FileManager.default.contents(atPath: path) else { throw SnapshotError("it cannot be read") }
        let bytes = [UInt8](data)
        guard bytes.count >= headerBytes, Array(bytes[0..<4]) == magic else {
            throw SnapshotError("not a snapshot (no RCS1 header)")
        }
        // The header's numbers, read as the payload's are.
        let header = CompactSource(bytes: bytes[4..<headerBytes])
        let version = try header.integer(UInt32.self)
        guard version == DispatchSnapshot.formatVersion else {
            throw SnapshotError("format \(version), this build reads \(DispatchSnapshot.formatVersion)")
        }
        let length = Int(try header.integer(UInt64.self))
        guard bytes.count - headerBytes == length else {
            throw SnapshotError("torn: \(bytes.count - headerBytes) payload bytes of \(length)")
        }
        let payload = bytes[headerBytes...]
        guard checksum(payload) == (try header.integer(UInt32.self)) else { throw SnapshotError("its checksum does not match") }
        do {
            return try CompactDecoder.decode(DispatchSnapshot.self, from: payload)
        } catch {
            throw SnapshotError("its payload does not decode (\(error))")
        }
    }
}

/// Why a snapshot file could not be used.
struct SnapshotError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
