import City
import Foundation

/// Checksums of files that processes on different hosts must agree on (the topology).
public enum FileChecksum {
    /// The CRC-32 of the file at `path`, or nil when it cannot be read.
    public static func crc32(ofFile path: String) -> UInt32? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return data.withUnsafeBytes { CRC32.of($0) }
    }
}
