/// A multipart ZeroMQ message: one or more frames, delivered whole or not at all.
///
/// The first frame is stored inline, so a single-frame message (the common case) costs one
/// allocation, not two.
public struct Message: Sendable, Hashable {
    /// The first frame; every message has one.
    public var first: [UInt8]
    /// The frames after the first (empty, and unallocated, for a single-frame message).
    public var rest: [[UInt8]]
    /// On a CURVE server socket, the name the sender's key was issued to (ZAP's User-Id);
    /// nil elsewhere. Set by the transport on receipt, never sent.
    public var userID: String?

    /// A message of the given frames; an empty list becomes one empty frame.
    public init(_ frames: [[UInt8]]) {
        first = frames.first ?? []
        rest = frames.count > 1 ? Array(frames.dropFirst()) : []
    }

    /// A single-frame message.
    public init(_ frame: [UInt8]) {
        first = frame
        rest = []
    }

    /// A message whose frames are the UTF-8 bytes of the given strings.
    public init(strings: [String]) {
        self.init(strings.map { Array($0.utf8) })
    }

    /// All frames in order (builds an array: prefer ``first``, ``rest`` and ``frameCount`` in hot paths).
    public var frames: [[UInt8]] { rest.isEmpty ? [first] : [first] + rest }

    /// How many frames the message has.
    public var frameCount: Int { 1 + rest.count }

    /// The frames decoded as UTF-8 text (invalid bytes repaired), for logs and tests.
    public var strings: [String] {
        frames.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Total payload bytes across all frames.
    public var byteCount: Int { rest.reduce(first.count) { $0 + $1.count } }
}
