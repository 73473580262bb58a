/// A record file that cannot be read at all (a bad row is not this: it is reported and skipped).
public struct DemandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}

/// What reading a record file found: rows read and kept, and the rows skipped with why.
public struct ReplayReport: Sendable, Equatable, CustomStringConvertible {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public let file: String
    public let format: TripFileFormat
    public var rows = 0
    public var kept = 0
    /// Skipped rows by reason.
    public var skipped: [String: Int] = [:]
    /// The first problems, with their lines (all are counted in `skipped`).
    public var problems: [Problem] = []
    static let problemsKept = 20

    public var skippedCount: Int { skipped.values.reduce(0, +) }

    mutating func skip(line: Int, _ reason: String) {
        skipped[reason, default: 0] += 1
        if problems.count < Self.problemsKept { problems.append(Problem(line: line, reason: reason)) }
    }

    public var description: String {
        var text = "\(file) (\(format.rawValue)): \(rows) rows, \(kept) kept, \(skippedCount) skipped"
        for (reason, count) in skipped.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            text += "\n  \(count) × \(reason)"
        }
        if let first = problems.first { text += "\n  first: \(first)" }
        return text
    }
}
