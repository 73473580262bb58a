/// Answers remembered by key, for at least the most recent `capacity` keys and at most twice
/// that, in two generations: when the newer holds `capacity` it becomes the older and the older
/// is dropped whole. Forgetting entries one at a time would cost more than the rest together:
/// each removal from a dictionary hashes again every key that moves back into the gap. What is
/// kept depends only on the order of the calls, never on timing.
///
/// Dispatch's replies already sent (`ReplyMemory`) and a query's routes asked lately
/// (``HierarchyQuery``) keep their answers in one.
public struct GenerationalMemory<Key: Hashable, Value> {
    public let capacity: Int
    private var recent: [Key: Value] = [:]
    private var older: [Key: Value] = [:]

    /// A memory of at least `capacity` answers; 0 (or less) remembers nothing.
    public init(capacity: Int) { self.capacity = capacity }

    /// The answer remembered for `key`, the newest if it was remembered twice.
    public subscript(key: Key) -> Value? { recent[key] ?? older[key] }

    /// How many answers are remembered (between `capacity` and twice that once that many came).
    public var count: Int { recent.count + older.count }

    /// Remembers `value` for `key` in the newer generation.
    public mutating func remember(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        recent[key] = value
        if recent.count >= capacity {
            older = recent
            recent = Dictionary(minimumCapacity: capacity)
        }
    }

    /// The answer for `key`: remembered (and kept among the newer, if it was in the older), or
    /// made by `make` and remembered.
    public mutating func answer(_ key: Key, make: (Key) -> Value) -> Value {
        if let known = recent[key] { return known }
        let value = older[key] ?? make(key)
        remember(key, value)
        return value
    }
}

extension GenerationalMemory: Sendable where Key: Sendable, Value: Sendable {}

extension GenerationalMemory: Codable where Key: Codable, Value: Codable {}
