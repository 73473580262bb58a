/// The id, message id and sequence number of one outgoing message.
public struct SenderStamp: Sendable, Equatable {
    public let sender: String
    public let sequence: UInt64

    /// `sender:sequence`: unique per sender, and the same on a retry of the same stamp.
    public var messageID: String { "\(sender):\(sequence)" }
}

/// Numbers a sender's messages 1, 2, 3, …; one per publisher (or per session).
public struct SequenceStamper: Sendable, Codable {
    public let sender: String
    public private(set) var lastSequence: UInt64

    public init(sender: String, startingAfter last: UInt64 = 0) {
        self.sender = sender
        self.lastSequence = last
    }

    /// The stamp for the next message.
    public mutating func next() -> SenderStamp {
        lastSequence += 1
        return SenderStamp(sender: sender, sequence: lastSequence)
    }
}
