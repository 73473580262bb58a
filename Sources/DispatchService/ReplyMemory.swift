/// Replies already sent, by the message id they answered, so that a retried request is answered
/// again instead of being acted on twice.
///
/// Keeps at least the most recent `capacity` replies and at most twice that, in two generations:
/// when the newer one holds `capacity` it becomes the older one and the older one is dropped
/// whole. Forgetting replies one at a time cost more than the rest of the memory together: each
/// removal from a dictionary of strings hashes again every key that moves back into the gap.
struct ReplyMemory: Codable {
    let capacity: Int
    private var recent: [String: [Outgoing]] = [:]
    private var older: [String: [Outgoing]] = [:]

    init(capacity: Int) { self.capacity = capacity }

    /// Replies remembered for `key`, the newest if it was remembered twice.
    func replies(to key: String) -> [Outgoing]? { recent[key] ?? older[key] }

    /// How many replies are remembered (between `capacity` and twice that once that many came).
    var count: Int { recent.count + older.count }

    mutating func remember(_ key: String, _ outgoing: [Outgoing]) {
        guard capacity > 0 else { return }
        recent[key] = outgoing
        if recent.count >= capacity {
            older = recent
            recent = Dictionary(minimumCapacity: capacity)
        }
    }
}
