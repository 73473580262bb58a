/// The messages an I/O loop's turn reads from one socket, gathered before they go to the
/// socket's consumer.
///
/// Frames read from libzmq are copied into one growing buffer as they come; ``take()`` makes a
/// ``FrameBlock`` of them and messages that share it, so a batch of small messages costs one
/// allocation instead of one per frame. A turn that read a single message gives it frames of its
/// own (it might be kept for long, and would keep a block alive). A socket that makes whole
/// messages itself (a packet link) hands them in with ``append(_:)``; the order of everything
/// appended is kept.
///
/// Used on the I/O thread only; one per loop, reused turn after turn.
struct ReceivedBatch: ~Copyable {
    /// Plain values, so that gathering and taking them retains nothing.
    private enum Item {
        /// Frames `first..<first + count` of the buffer.
        case framed(first: UInt32, count: UInt32)
        /// ``wholes``[`index`].
        case whole(index: UInt32)
    }

    private var bytes: UnsafeMutableRawPointer
    private var byteCapacity: Int
    private var usedBytes = 0
    /// Each buffered frame's end offset.
    private var ends: [Int] = []
    private var items: [Item] = []
    private var wholes: [Message] = []
    /// The senders' ZAP User-Ids of the framed messages that have one, by item.
    private var userIDs: [(item: Int, name: String)] = []
    /// The first frame of the message being read, while one is.
    private var openedAt: Int?
    /// Payload bytes of everything appended this turn (of whole messages only while
    /// ``countsWholeBytes``: summing their frames costs the hot path of an uncapped buffer).
    private(set) var byteCount = 0
    /// Whether ``byteCount`` includes whole messages' bytes; the loop sets it for a socket whose
    /// inbound buffer has a byte capacity.
    var countsWholeBytes = true

    private static let initialCapacity = 4096
    private static let keptCapacity = 1 << 20

    init() {
        // Sized at the first frame: a batch made for one receive (a monitor's) may get none.
        byteCapacity = 0
        bytes = .allocate(byteCount: 0, alignment: 16)
    }

    deinit {
        bytes.deallocate()
    }

    /// Messages appended this turn.
    var count: Int { items.count }

    /// Starts a message read frame by frame.
    mutating func open() {
        assert(openedAt == nil, "a message opened before the last one was closed")
        openedAt = ends.count
    }

    /// Copies the next frame of the open message into the buffer.
    mutating func appendFrame(_ frame: UnsafeRawBufferPointer) {
        assert(openedAt != nil, "a frame with no message open")
        if usedBytes + frame.count > byteCapacity { grow(toFit: usedBytes + frame.count) }
        if let source = frame.baseAddress { (bytes + usedBytes).copyMemory(from: source, byteCount: frame.count) }
        usedBytes += frame.count
        ends.append(usedBytes)
        byteCount += frame.count
    }

    /// Ends the open message; `userID` is its sender's ZAP User-Id, if any.
    mutating func close(userID: String?) {
        guard let first = openedAt else {
            assertionFailure("closed a message never opened")
            return
        }
        openedAt = nil
        if let userID { userIDs.append((items.count, userID)) }
        items.append(.framed(first: UInt32(first), count: UInt32(ends.count - first)))
    }

    /// Drops the open message's frames (its receive failed part-way).
    mutating func abandon() {
        guard let first = openedAt else { return }
        openedAt = nil
        let kept = first == 0 ? 0 : ends[first - 1]
        byteCount -= usedBytes - kept
        usedBytes = kept
        ends.removeSubrange(first...)
    }

    /// Adds a message made whole by its socket.
    mutating func append(_ message: Message) {
        assert(openedAt == nil, "a whole message while another is open")
        if countsWholeBytes { byteCount += message.byteCount }
        items.append(.whole(index: UInt32(wholes.count)))
        wholes.append(message)
    }

    /// The messages of the turn, in order; empties the batch for the next turn.
    mutating func take() -> [Message] {
        assert(openedAt == nil, "taken with a message open")
        defer {
            items.removeAll(keepingCapacity: true)
            wholes.removeAll(keepingCapacity: true)
            userIDs.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            usedBytes = 0
            byteCount = 0
            // One huge message should not keep a huge buffer for the life of the loop.
            if byteCapacity > Self.keptCapacity {
                bytes.deallocate()
                byteCapacity = 0
                bytes = .allocate(byteCount: 0, alignment: 16)
            }
        }
        guard !items.isEmpty else { return [] }
        // Only whole messages (a packet link's turn): handed on as they are, without copies.
        if ends.isEmpty {
            let messages = wholes
            wholes = []
            return messages
        }
        if items.count == 1, case .framed(let first, let count) = items[0] {
            // Built as the two fields it stores: no array of all the frames on the way.
            var message = Message(ownedFrame(Int(first)))
            if count > 1 { message.rest = (Int(first) + 1..<Int(first + count)).map { ownedFrame($0) } }
            message.userID = userIDs.first?.name
            return [message]
        }
        let block: FrameBlock? =
            ends.isEmpty
            ? nil
            : ends.withUnsafeBufferPointer {
                FrameBlock.make(bytes: UnsafeRawBufferPointer(start: bytes, count: usedBytes), ends: $0)
            }
        var messages: [Message] = []
        messages.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .framed(let first, let count):
                // `block` exists whenever a framed item does: it holds that item's frames.
                messages.append(Message(block: block!, first: Int(first), count: Int(count), userID: nil))
            case .whole(let index):
                messages.append(wholes[Int(index)])
            }
        }
        for (item, name) in userIDs { messages[item].userID = name }
        return messages
    }

    private func ownedFrame(_ index: Int) -> [UInt8] {
        let start = index == 0 ? 0 : ends[index - 1]
        return [UInt8](UnsafeRawBufferPointer(start: bytes + start, count: ends[index] - start))
    }

    private mutating func grow(toFit needed: Int) {
        var capacity = max(byteCapacity, Self.initialCapacity)
        while capacity < needed { capacity *= 2 }
        let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        larger.copyMemory(from: bytes, byteCount: usedBytes)
        bytes.deallocate()
        bytes = larger
        byteCapacity = capacity
    }
}
