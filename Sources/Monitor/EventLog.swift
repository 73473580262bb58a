import Foundation
import Wire

/// A run's bus, recorded: every envelope the recorder saw, in arrival order, each as a 4-byte
/// little-endian length and the envelope's protobuf bytes (`events.pb` in the run directory).
/// The format is this simple so that any language with protobuf can read it.
public enum EventLog {
    /// Why a recording could not be read.
    public struct ReadError: Error, CustomStringConvertible {
        public let file: String
        public let offset: Int
        public let reason: String
        public var description: String { "\(file): at byte \(offset): \(reason)" }
    }

    /// Appends envelopes to a recording.
    public actor Writer {
        private let handle: FileHandle
        private var buffer = Data()
        public private(set) var recorded = 0

        /// Creates (or truncates) the file at `path`.
        public init(path: String) throws {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw ReadError(file: path, offset: 0, reason: "cannot create the file")
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }

        /// Records `envelopes` (written a megabyte at a time; ``close()`` writes the rest).
        public func append(_ envelopes: [Envelope]) {
            for envelope in envelopes {
                let bytes = WireCodec.encode(envelope)
                var length = UInt32(bytes.count).littleEndian
                withUnsafeBytes(of: &length) { buffer.append(contentsOf: $0) }
                buffer.append(contentsOf: bytes)
            }
            recorded += envelopes.count
            if buffer.count > 1 << 20 { flush() }
        }

        /// Writes what is buffered and closes the file.
        public func close() {
            flush()
            try? handle.close()
        }

        private func flush() {
            try? handle.write(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Every envelope of the recording at `path`, in order. A truncated last record (the
    /// recorder was killed mid-write) ends the reading; anything else malformed is an error
    /// naming the byte offset.
    public static func read(path: String) throws -> (envelopes: [Envelope], truncated: Bool) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(file: path, offset: 0, reason: "cannot read the file")
        }
        var envelopes: [Envelope] = []
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            guard offset + 4 <= bytes.count else { return (envelopes, true) }
            let length = Int(
                UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(
                    bytes[offset + 3]) << 24)
            guard length <= WireCodec.maximumPayloadBytes else {
                throw ReadError(
                    file: path, offset: offset, reason: "a record of \(length) bytes (at most \(WireCodec.maximumPayloadBytes))")
            }
            guard offset + 4 + length <= bytes.count else { return (envelopes, true) }
            do {
                envelopes.append(try WireCodec.decode(Array(bytes[(offset + 4)..<(offset + 4 + length)])))
            } catch {
                throw ReadError(file: path, offset: offset, reason: "not a ribcity envelope: \(error)")
            }
            offset += 4 + length
        }
        return (envelopes, false)
    }
}
