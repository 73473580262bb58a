import City

/// Replies already sent, by the message id they answered, so that a retried request is answered
/// again instead of being acted on twice: at least the most recent `capacity` replies and at most
/// twice that (``GenerationalMemory``).
struct ReplyMemory: Codable {
    private var memory: GenerationalMemory<String, [Outgoing]>

    init(capacity: Int) { memory = GenerationalMemory(capacity: capacity) }

    /// Replies remembered for `key`, the newest if it was remembered twice.
    func replies(to key: String) -> [Outgoing]? { memory[key] }

    /// How many replies are remembered (between `capacity` and twice that once that many came).
    var count: Int { memory.count }

    mutating func remember(_ key: String, _ outgoing: [Outgoing]) { memory.remember(key, outgoing) }

    // Coded as the memory itself: the snapshot's layout (capacity, recent, older) is unchanged.
    init(from decoder: any Decoder) throws { memory = try GenerationalMemory(from: decoder) }
    func encode(to encoder: any Encoder) throws { try memory.encode(to: encoder) }
}
