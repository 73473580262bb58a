/// Why bytes are not a usable file of the city's own (a routing hierarchy, imported roads): what
/// is wrong, in words.
public struct PackedFileFailure: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The layout the city's own files share: a header — four magic bytes, a format version, the
/// keys saying what the contents were made from, the payload's length and its CRC-32 — then the
/// payload, values and flat arrays in the order they were written. Numbers are little-endian and
/// arrays are stored in the machine's byte order (little-endian on every platform the project
/// builds for). Reading checks every count against what is left: damaged bytes are a
/// ``PackedFileFailure``, never a crash.
enum PackedFile {
    /// A key of the header, and what to say when a file's differs.
    struct Key {
        let value: UInt32
        let mismatch: String
    }

    /// The header for `payload`, then the payload.
    static func seal(magic: [UInt8], version: UInt32, keys: [UInt32], payload: PackedWriter) -> [UInt8] {
        var header = PackedWriter()
        header.bytes = magic
        header.append(version)
        for key in keys { header.append(key) }
        header.append(UInt64(payload.bytes.count))
        header.append(CRC32.of(payload.bytes))
        return header.bytes + payload.bytes
    }

    /// A reader at the start of `bytes`' payload, once the header says the file is of this kind,
    /// format and keys, whole and unchanged.
    static func open(
        _ bytes: [UInt8], magic: [UInt8], version: UInt32, keys: [Key], kind: String
    ) throws(PackedFileFailure)
        -> PackedReader
    {
        var reader = PackedReader(bytes: bytes)
        let name = String(decoding: magic, as: UTF8.self)
        guard (try? reader.bytes(magic.count)) == magic else { throw PackedFileFailure("not \(kind) (no \(name) header)") }
        let found: UInt32 = try reader.value()
        guard found == version else { throw PackedFileFailure("format \(found), this build reads \(version)") }
        for key in keys {
            guard try reader.value(UInt32.self) == key.value else { throw PackedFileFailure(key.mismatch) }
        }
        let length: UInt64 = try reader.value()
        let checksum: UInt32 = try reader.value()
        guard UInt64(reader.remaining) == length else {
            throw PackedFileFailure("torn: \(reader.remaining) payload bytes of \(length)")
        }
        guard CRC32.of(bytes[reader.offset...]) == checksum else { throw PackedFileFailure("its checksum does not match") }
        return reader
    }

    /// A row index: one start per node and one past the end, from 0, never going back, ending at `entries`.
    static func checkRows(_ first: [Int32], entries: Int, nodes: Int, name: String) throws(PackedFileFailure) {
        guard first.count == nodes + 1, first.first == 0, first.last == Int32(truncatingIfNeeded: entries) else {
            throw PackedFileFailure("\(name): an index of \(first.count) rows for \(nodes) nodes and \(entries) entries")
        }
        for index in 1..<first.count where first[index] < first[index - 1] {
            throw PackedFileFailure("\(name): row \(index - 1) ends before it starts")
        }
    }
}

/// Appends values and flat arrays to bytes, for ``PackedReader`` to read back in the same order.
struct PackedWriter {
    var bytes: [UInt8] = []

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The count, then the elements' bytes.
    mutating func append<T: BitwiseCopyable>(array: [T]) {
        append(UInt64(array.count))
        array.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
}

/// Reads what a ``PackedWriter`` wrote, in order, each read checked against what is left.
struct PackedReader {
    let bytes: [UInt8]
    var offset = 0

    var remaining: Int { bytes.count - offset }

    mutating func bytes(_ count: Int) throws(PackedFileFailure) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw PackedFileFailure("ends early, at byte \(offset)") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func value<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(PackedFileFailure) -> T {
        let raw = try bytes(MemoryLayout<T>.size)
        return T(littleEndian: raw.withUnsafeBytes { $0.loadUnaligned(as: T.self) })
    }

    mutating func array<T: BitwiseCopyable>() throws(PackedFileFailure) -> [T] {
        let count: UInt64 = try value()
        let stride = MemoryLayout<T>.stride
        guard count <= UInt64(remaining / stride) else { throw PackedFileFailure("an array of \(count) longer than the file") }
        let size = Int(count) * stride
        guard size > 0 else { return [] }
        let start = offset
        offset += size
        return [T](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
            bytes.withUnsafeBytes { raw in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + size)]))
            }
            initialized = Int(count)
        }
    }
}
