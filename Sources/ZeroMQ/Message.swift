/// A multipart ZeroMQ message: one or more frames, delivered whole or not at all.
///
/// A message made here owns its frames, the first stored inline, so a single-frame message
/// costs one allocation, not two. A message the transport received together with others shares
/// one buffer with the rest of its batch: the I/O thread copies each frame into that buffer
/// rather than into an array of its own. ``first``, ``rest``, ``frames`` and ``frame(_:)`` copy
/// such frames out when asked; ``withFrame(_:_:)`` reads any frame in place. A shared message
/// keeps its batch's buffer alive for as long as it lives: store ``frames``, not the message, to
/// keep a frame for long. Equality and hashing look only at the frames' bytes and ``userID``,
/// never at how they are stored.
public struct Message: Sendable {
    /// Frames `first..<first + count` of a block shared with the rest of a received batch.
    ///
    /// `@unchecked Sendable` for the block alone: a ``FrameBlock`` is complete before any
    /// message refers to it and is never written again, so threads that share one only read it.
    struct Shared: @unchecked Sendable {
        let block: FrameBlock
        let first: UInt32
        let count: UInt32

        /// Reads the message's frame `index` in place.
        @inline(__always)
        func withFrame<R, E: Error>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
            try block.withFrame(Int(first) + index, body)
        }

        /// The message's frame `index`, copied out.
        func frame(_ index: Int) -> [UInt8] { withFrame(index) { [UInt8]($0) } }
    }

    // Stored fields, not an enum of the two forms: a frame read out of an enum's payload is
    // copied, a retain and a release around each `zmq_send` (PERFORMANCE.md, session 33), while
    // a stored array is read in place through its span.
    /// The first frame of a message that owns its frames (empty for a shared one).
    private(set) var ownedFirst: [UInt8]
    /// The other frames of a message that owns its frames (empty for a shared one).
    private(set) var ownedRest: [[UInt8]]
    /// Where a shared message's frames are; nil for one that owns them.
    private(set) var shared: Shared?
    /// On a CURVE server socket, the name the sender's key was issued to (ZAP's User-Id);
    /// nil elsewhere. Set by the transport on receipt, never sent.
    public var userID: String?

    /// A message of the given frames; an empty list becomes one empty frame.
    public init(_ frames: [[UInt8]]) {
        ownedFirst = frames.first ?? []
        ownedRest = frames.count > 1 ? Array(frames.dropFirst()) : []
    }

    /// A single-frame message.
    public init(_ frame: [UInt8]) {
        ownedFirst = frame
        ownedRest = []
    }

    /// A message whose frames are the UTF-8 bytes of the given strings.
    public init(strings: [String]) {
        self.init(strings.map { Array($0.utf8) })
    }

    /// Frames `first..<first + count` of `block`.
    init(block: FrameBlock, first: Int, count: Int, userID: String?) {
        assert(count >= 1, "a message has at least one frame")
        ownedFirst = []
        ownedRest = []
        shared = Shared(block: block, first: UInt32(first), count: UInt32(count))
        self.userID = userID
    }

    /// The first frame; every message has one. Copied out of a shared buffer; setting it makes
    /// the message own all its frames.
    public var first: [UInt8] {
        get { shared.map { $0.frame(0) } ?? ownedFirst }
        set {
            if shared != nil { ownAll() }
            ownedFirst = newValue
        }
    }

    /// The frames after the first (empty, and unallocated, for a single-frame message of its own).
    /// Copied out of a shared buffer; setting them makes the message own all its frames.
    public var rest: [[UInt8]] {
        get {
            guard let shared else { return ownedRest }
            return (1..<Int(shared.count)).map(shared.frame)
        }
        set {
            if shared != nil { ownAll() }
            ownedRest = newValue
        }
    }

    /// All frames in order (builds an array: prefer ``withFrame(_:_:)`` and ``frameCount`` in hot paths).
    public var frames: [[UInt8]] {
        guard let shared else { return ownedRest.isEmpty ? [ownedFirst] : [ownedFirst] + ownedRest }
        return (0..<Int(shared.count)).map(shared.frame)
    }

    /// Frame `index` (0 is ``first``), copied out of a shared buffer.
    public func frame(_ index: Int) -> [UInt8] {
        precondition(index >= 0 && index < frameCount, "frame \(index) of a \(frameCount)-frame message")
        if let shared { return shared.frame(index) }
        return index == 0 ? ownedFirst : ownedRest[index - 1]
    }

    /// Reads frame `index` (0 is ``first``) in place; the bytes are valid only inside `body`.
    @inline(__always)
    public func withFrame<R, E: Error>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        precondition(index >= 0 && index < frameCount, "frame \(index) of a \(frameCount)-frame message")
        if let shared { return try shared.withFrame(index, body) }
        if index == 0 { return try ownedFirst.span.withUnsafeBytes(body) }
        let frames = ownedRest.span
        return try frames[index - 1].span.withUnsafeBytes(body)
    }

    /// How many frames the message has.
    public var frameCount: Int { shared.map { Int($0.count) } ?? 1 + ownedRest.count }

    /// The frames decoded as UTF-8 text (invalid bytes repaired), for logs and tests.
    public var strings: [String] {
        (0..<frameCount).map { index in withFrame(index) { String(decoding: $0, as: UTF8.self) } }
    }

    /// Total payload bytes across all frames.
    public var byteCount: Int {
        guard let shared else { return ownedRest.reduce(ownedFirst.count) { $0 + $1.count } }
        return shared.block.byteCount(ofFrames: Int(shared.first), count: Int(shared.count))
    }

    /// Whether its frames live in a buffer shared with the rest of the batch it was received in.
    var isShared: Bool { shared != nil }

    /// Copies shared frames into arrays of the message's own.
    private mutating func ownAll() {
        let frames = self.frames
        shared = nil
        ownedFirst = frames[0]
        ownedRest = Array(frames.dropFirst())
    }
}

extension Message: Hashable {
    public static func == (left: Message, right: Message) -> Bool {
        guard left.userID == right.userID, left.frameCount == right.frameCount else { return false }
        for index in 0..<left.frameCount {
            let same = left.withFrame(index) { a in right.withFrame(index) { b in a.elementsEqual(b) } }
            if !same { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(frameCount)
        for index in 0..<frameCount {
            withFrame(index) { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: bytes)
            }
        }
        hasher.combine(userID)
    }
}
