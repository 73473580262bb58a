/// A multipart ZeroMQ message: one or more frames, delivered whole or not at all.
public struct Message: Sendable, Hashable {
    /// The frames in order. A message always has at least one frame.
    public var frames: [[UInt8]]

    /// A message of the given frames; an empty list becomes one empty frame.
    public init(_ frames: [[UInt8]]) {
        self.frames = frames.isEmpty ? [[]] : frames
    }

    /// A single-frame message.
    public init(_ frame: [UInt8]) {
        self.frames = [frame]
    }

    /// A message whose frames are the UTF-8 bytes of the given strings.
    public init(strings: [String]) {
        self.init(strings.map { Array($0.utf8) })
    }

    /// The frames decoded as UTF-8 text (invalid bytes repaired), for logs and tests.
    public var strings: [String] {
        frames.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Total payload bytes across all frames.
    public var byteCount: Int { frames.reduce(0) { $0 + $1.count } }
}
