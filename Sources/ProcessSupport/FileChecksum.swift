import CZlib
import Foundation

/// Checksums of files that processes on different hosts must agree on (the topology).
public enum FileChecksum {
    /// The CRC-32 of the file at `path`, or nil when it cannot be read.
    public static func crc32(ofFile path: String) -> UInt32? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return data.withUnsafeBytes { bytes in
            UInt32(truncatingIfNeeded: CZlib.crc32(0, bytes.bindMemory(to: UInt8.self).baseAddress, uInt(bytes.count)))
        }
    }
}
