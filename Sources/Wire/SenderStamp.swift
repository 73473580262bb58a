/// The id, message id and sequence number of one outgoing message.
public struct SenderStamp: Sendable, Equatable {
    public let sender: String
    public let sequence: UInt64

    /// `sender:sequence`: unique per sender, and the same on a retry of the same stamp.
    ///
    /// Written into its string's storage directly: every message sent names one, and interpolating
    /// it was 1.8 % of dispatch's instructions on metro (writing it so took 1.2 % off).
    public var messageID: String {
        var digits = 1
        var rest = sequence / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let senderBytes = sender.utf8.count
        return String(unsafeUninitializedCapacity: senderBytes + 1 + digits) { buffer in
            _ = buffer.initialize(fromContentsOf: sender.utf8)
            buffer[senderBytes] = UInt8(ascii: ":")
            var number = sequence
            for index in stride(from: senderBytes + digits, to: senderBytes, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(number % 10)
                number /= 10
            }
            return senderBytes + 1 + digits
        }
    }
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
