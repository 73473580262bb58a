import Glibc

/// Dispatch's journal on disk (`dispatch.journal` in a run directory): the magic bytes `RCJ1`,
/// then records, each a 4-byte little-endian length and a ``JournalEntry``'s bytes.
///
/// Entries are written with one `write(2)` per batch before dispatch acts on them, so a process
/// killed at any moment leaves, at worst, a torn last record: reading stops there and the file
/// is cut back to its last whole record before new ones are appended. (The kernel keeps what was
/// written when a process dies; surviving a power cut would need `fsync`, which this does not do.)
///
/// Not `Sendable`: the dispatch server's actor owns it.
public final class DispatchJournal {
    static let magic: [UInt8] = Array("RCJ1".utf8)

    public let path: String
    private let descriptor: Int32
    /// Bytes written so far, the magic included.
    public private(set) var size: Int
    /// Entries written so far (those already there when it was opened included).
    public private(set) var count: Int

    /// What a journal file held: its bytes, framed into records when read (the first, the run's
    /// clock, decoded), each record decoded as a replay reaches it — a big city's journal holds
    /// hundreds of thousands of entries, most of them covered by a snapshot and never replayed.
    public struct Contents: Sendable {
        let bytes: [UInt8]
        /// The file, for errors.
        let file: String
        /// How many whole entries there are.
        public let count: Int
        /// The length of the whole records (where appending resumes).
        public let validBytes: Int
        /// Whether a torn last record was left out.
        public let truncated: Bool

        static func empty(_ file: String) -> Contents {
            Contents(bytes: [], file: file, count: 0, validBytes: 0, truncated: false)
        }

        /// Calls `body` with each entry in order, from the record at byte `offset` (the first, unless
        /// a snapshot covers those before; 4, after the magic bytes, is the first).
        /// - Throws: a ``JournalError`` naming the record that does not decode, or what `body` throws.
        public func forEachEntry(from offset: Int = 4, _ body: (JournalEntry) throws -> Void) throws {
            var offset = offset
            while offset < validBytes {
                let length = DispatchJournal.length(at: offset, in: bytes)
                let entry: JournalEntry
                do {
                    entry = try JournalEntry(decoding: bytes[(offset + 4)..<(offset + 4 + length)])
                } catch {
                    throw JournalError(file: file, offset: offset, reason: error)
                }
                try body(entry)
                offset += 4 + length
            }
        }

        /// Every entry (for tests and tools; a replay goes entry by entry).
        public func entries() throws -> [JournalEntry] {
            var all: [JournalEntry] = []
            try forEachEntry { all.append($0) }
            return all
        }

        /// The first entry: the run's clock.
        public var first: JournalEntry? {
            guard count > 0 else { return nil }
            let length = DispatchJournal.length(at: DispatchJournal.magic.count, in: bytes)
            return try? JournalEntry(
                decoding: bytes[(DispatchJournal.magic.count + 4)..<(DispatchJournal.magic.count + 4 + length)])
        }
    }

    static func length(at offset: Int, in bytes: [UInt8]) -> Int {
        Int(
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3])
                << 24)
    }

    /// Opens the journal at `path` for appending, creating it if it does not exist; `contents`,
    /// what ``read(path:)`` found there, says where its whole records end (a torn last record is
    /// cut) and how many there are.
    public init(path: String, continuing contents: Contents? = nil) throws(JournalError) {
        self.path = path
        count = contents?.count ?? 0
        let validBytes = contents?.validBytes
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw JournalError(file: path, offset: 0, reason: .system("open", errno)) }
        let end = lseek(descriptor, 0, SEEK_END)
        if let validBytes, Int(end) > validBytes {
            guard ftruncate(descriptor, off_t(validBytes)) == 0 else {
                throw JournalError(file: path, offset: validBytes, reason: .system("ftruncate", errno))
            }
        }
        size = Int(lseek(descriptor, 0, SEEK_END))
        if size == 0 {
            try write(Self.magic)
        }
    }

    deinit { close(descriptor) }

    /// Appends entries with a single write.
    public func append(_ entries: [JournalEntry]) throws(JournalError) {
        guard !entries.isEmpty else { return }
        var bytes: [UInt8] = []
        for entry in entries {
            let record = entry.encoded
            withUnsafeBytes(of: UInt32(record.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: record)
        }
        try write(bytes)
        count += entries.count
    }

    private func write(_ bytes: [UInt8]) throws(JournalError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw JournalError(file: path, offset: size + written, reason: .system("write", errno))
            }
            written += result
        }
        size += bytes.count
    }

    /// Every whole entry of the journal at `path`; a missing or empty file has none.
    public static func read(path: String) throws(JournalError) -> Contents {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return .empty(path) }
            throw JournalError(file: path, offset: 0, reason: .system("open", errno))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw JournalError(file: path, offset: bytes.count, reason: .system("read", errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return try parse(bytes, file: path)
    }

    /// The records of a journal's bytes (`file` names it in errors): their framing checked, the
    /// first decoded (it must be the clock's start), the others when replayed.
    static func parse(_ bytes: [UInt8], file: String) throws(JournalError) -> Contents {
        if bytes.isEmpty { return .empty(file) }
        guard bytes.count >= magic.count else { return Contents(bytes: [], file: file, count: 0, validBytes: 0, truncated: true) }
        guard Array(bytes[0..<magic.count]) == magic else { throw JournalError(file: file, offset: 0, reason: .notAJournal) }
        var count = 0
        var offset = magic.count
        var truncated = false
        while offset < bytes.count {
            guard offset + 4 <= bytes.count else {
                truncated = true
                break
            }
            let length = length(at: offset, in: bytes)
            guard offset + 4 + length <= bytes.count else {
                truncated = true
                break
            }
            if count == 0 {
                let entry: JournalEntry
                do {
                    entry = try JournalEntry(decoding: bytes[(offset + 4)..<(offset + 4 + length)])
                } catch {
                    throw JournalError(file: file, offset: offset, reason: error)
                }
                guard case .started = entry else { throw JournalError(file: file, offset: magic.count, reason: .noClock) }
            }
            count += 1
            offset += 4 + length
        }
        return Contents(bytes: bytes, file: file, count: count, validBytes: offset, truncated: truncated)
    }
}

/// Why a journal could not be read or written: the file, the byte offset and the reason.
public struct JournalError: Error, CustomStringConvertible, Equatable {
    public enum Reason: Error, Equatable, CustomStringConvertible {
        case notAJournal
        case noClock
        case badKind(UInt8)
        case short(String)
        case trailing(Int)
        case system(String, Int32)

        public var description: String {
            switch self {
            case .notAJournal: "not a dispatch journal (it does not start with RCJ1)"
            case .noClock: "the first record is not the clock's start"
            case .badKind(let kind): "unknown record kind \(kind)"
            case .short(let what): "the record ends before \(what)"
            case .trailing(let count): "\(count) bytes after the record's end"
            case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
            }
        }
    }

    public let file: String
    public let offset: Int
    public let reason: Reason

    public var description: String { "\(file): at byte \(offset): \(reason)" }
}
