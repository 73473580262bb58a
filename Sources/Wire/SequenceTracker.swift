/// Follows the sequence numbers of many senders and says what was missed or repeated.
///
/// A subscriber on the bus feeds every envelope's `sender` and `sequence` here; PUB drops,
/// restarts and duplicates become visible instead of silently skewing counts.
public struct SequenceTracker: Sendable {
    /// What one observed sequence number means.
    public enum Observation: Sendable, Equatable {
        /// The first message seen from this sender.
        case first
        /// Exactly the next one.
        case inOrder
        /// Messages in `missing` never arrived.
        case gap(missing: ClosedRange<UInt64>)
        /// At or below what was already seen: a duplicate or a replay.
        case duplicate
        /// The sender started again from 1 (it restarted).
        case restarted
    }

    public private(set) var lastSeen: [String: UInt64] = [:]
    /// Messages known to be missing, per sender, over the whole run.
    public private(set) var missed: [String: UInt64] = [:]
    public private(set) var duplicates: [String: UInt64] = [:]

    public init() {}

    /// Total messages known missing across all senders.
    public var totalMissed: UInt64 { missed.values.reduce(0, +) }

    public mutating func observe(sender: String, sequence: UInt64) -> Observation {
        guard let last = lastSeen[sender] else {
            // A sender first seen above 1 was joined late: what came before is not counted as lost.
            lastSeen[sender] = sequence
            return .first
        }
        if sequence == last + 1 {
            lastSeen[sender] = sequence
            return .inOrder
        }
        if sequence == 1 && last > 1 {
            lastSeen[sender] = sequence
            return .restarted
        }
        if sequence <= last {
            duplicates[sender, default: 0] += 1
            return .duplicate
        }
        lastSeen[sender] = sequence
        missed[sender, default: 0] += sequence - last - 1
        return .gap(missing: (last + 1)...(sequence - 1))
    }

    /// Starts following a sender from a known point (e.g. a snapshot's `sequence_at`), unless
    /// later messages of it were seen already (the snapshot came after them, on another socket).
    public mutating func resume(sender: String, after sequence: UInt64) {
        lastSeen[sender] = max(lastSeen[sender] ?? 0, sequence)
    }

    /// Counts `count` messages of `sender` as lost although they arrived: what they told could
    /// not be kept (a snapshot came too late to be brought up to date with them).
    public mutating func lose(_ count: UInt64, from sender: String) {
        missed[sender, default: 0] += count
    }
}
