import Randomness

/// Faults a sender injects into what it sends (stress mode; off unless asked for: the sessions of
/// driver and rider processes, and dispatch for its replies and pushes): each message
/// is dropped, duplicated (the same bytes, so the same message id) or held back for a while
/// (so that later ones overtake it), each with its probability, from a seeded generator.
public struct MessageFaults: Sendable, Equatable {
    public var drop: Double
    public var duplicate: Double
    public var delay: Double
    /// The longest a delayed message is held back (wall time).
    public var maxDelay: Duration
    public var seed: UInt64

    public init(
        drop: Double = 0, duplicate: Double = 0, delay: Double = 0, maxDelay: Duration = .milliseconds(200), seed: UInt64 = 1
    ) {
        self.drop = drop
        self.duplicate = duplicate
        self.delay = delay
        self.maxDelay = maxDelay
        self.seed = seed
    }

    /// No fault at all.
    public var isEmpty: Bool { drop <= 0 && duplicate <= 0 && delay <= 0 }

    /// Reads `drop=0.01,duplicate=0.05,delay=0.05:200ms` (any subset, any order).
    public init(parsing text: String, seed: UInt64) throws(FaultSpecError) {
        self.init(seed: seed)
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw FaultSpecError(text: text, reason: "'\(part)' is not name=value") }
            var value = pair[1]
            if pair[0] == "delay", let colon = value.firstIndex(of: ":") {
                let limit = value[value.index(after: colon)...]
                guard limit.hasSuffix("ms"), let milliseconds = Int(limit.dropLast(2)), milliseconds > 0 else {
                    throw FaultSpecError(text: text, reason: "delay's limit '\(limit)' is not like 200ms")
                }
                maxDelay = .milliseconds(milliseconds)
                value = String(value[..<colon])
            }
            guard let probability = Double(value), (0...1).contains(probability) else {
                throw FaultSpecError(text: text, reason: "\(pair[0])'s '\(value)' is not a probability between 0 and 1")
            }
            switch pair[0] {
            case "drop": drop = probability
            case "duplicate": duplicate = probability
            case "delay": delay = probability
            default: throw FaultSpecError(text: text, reason: "unknown fault '\(pair[0])' (drop, duplicate, delay)")
            }
        }
    }

    /// What happens to one message.
    public enum Fate: Equatable, Sendable {
        case send, drop, duplicate
        case delay(Duration)
    }

    public func fate(using random: inout some RandomNumberGenerator) -> Fate {
        let roll = Double.random(in: 0..<1, using: &random)
        if roll < drop { return .drop }
        if roll < drop + duplicate { return .duplicate }
        if roll < drop + duplicate + delay {
            return .delay(.milliseconds(Int64.random(in: 1...max(1, Int64(maxDelay / .milliseconds(1))), using: &random)))
        }
        return .send
    }
}

/// A fault specification that could not be read.
public struct FaultSpecError: Error, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "message faults '\(text)': \(reason)" }
}

/// Applies ``MessageFaults`` to a sender's messages one by one, from its seeded generator, and
/// counts what it did: the one fault layer for sessions and dispatch alike.
public struct FaultInjector: Sendable {
    public let faults: MessageFaults
    private var random: SeededGenerator
    public private(set) var dropped = 0
    public private(set) var duplicated = 0
    public private(set) var delayed = 0

    public init(_ faults: MessageFaults) {
        self.faults = faults
        random = SeededGenerator(seed: faults.seed)
    }

    /// What to do with the next message: send it this many times now (0, 1 or 2), or once after
    /// `delay`.
    public mutating func next() -> (copies: Int, delay: Duration?) {
        guard !faults.isEmpty else { return (1, nil) }
        switch faults.fate(using: &random) {
        case .send: return (1, nil)
        case .drop:
            dropped += 1
            return (0, nil)
        case .duplicate:
            duplicated += 1
            return (2, nil)
        case .delay(let wait):
            delayed += 1
            return (0, wait)
        }
    }

    /// "N dropped, N duplicated, N delayed", for a process's last lines.
    public var summary: String { "\(dropped) dropped, \(duplicated) duplicated, \(delayed) delayed" }
}
