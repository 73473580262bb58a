import CZlib

/// zlib's CRC-32, the one checksum of the project's files: snapshots, routing hierarchies, the
/// topology a host joins with. Here beside the other zlib wrapper (`Inflate`) because City is
/// the lowest module that links zlib.
public enum CRC32 {
    /// The CRC-32 of `bytes`, continuing from `start` (a checksum of what came before, 0 for none).
    public static func of(_ bytes: UnsafeRawBufferPointer, continuing start: UInt32 = 0) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32(uLong(start), bytes.bindMemory(to: UInt8.self).baseAddress, uInt(bytes.count)))
    }

    /// The CRC-32 of the bytes of `values`, continuing from `start`.
    public static func of<C: Collection>(_ values: C, continuing start: UInt32 = 0) -> UInt32
    where C.Element: BitwiseCopyable {
        if let crc = values.withContiguousStorageIfAvailable({ of(UnsafeRawBufferPointer($0), continuing: start) }) {
            return crc
        }
        return Array(values).withUnsafeBytes { of($0, continuing: start) }
    }
}
