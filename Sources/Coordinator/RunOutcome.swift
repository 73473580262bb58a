/// How a run ended.
public enum RunOutcome: Sendable, Equatable, CustomStringConvertible, Codable {
    /// Every rider process finished and no ride is open.
    case completed
    /// Interrupted on request (Ctrl-C, SIGTERM) before it completed.
    case stopped
    /// Stopped at the wall-time limit, in seconds.
    case wallLimitReached(seconds: Double)
    /// A process that cannot be restarted exited, or supervision gave up; the reason.
    case failed(String)

    public var description: String {
        switch self {
        case .completed: "completed"
        case .stopped: "interrupted"
        case .wallLimitReached(let seconds): "stopped: wall-time limit of \(Self.format(seconds)) s reached"
        case .failed(let reason): "failed: \(reason)"
        }
    }

    public var isCompleted: Bool { self == .completed }

    /// The exit status of a command whose run ended this way: 130 for an interrupted run (as a
    /// shell reports a process ended by SIGINT), 1 for a failure, 0 otherwise.
    public var exitStatus: Int32 {
        switch self {
        case .stopped: 130
        case .failed: 1
        case .completed, .wallLimitReached: 0
        }
    }

    public var isFailure: Bool {
        if case .failed = self { true } else { false }
    }

    /// In `summary.json` an outcome is the sentence `description` gives, read back the same way.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        switch text {
        case "completed": self = .completed
        case "interrupted", "stopped": self = .stopped
        case _ where text.hasPrefix("failed: "): self = .failed(String(text.dropFirst("failed: ".count)))
        case _ where text.hasPrefix("stopped: wall-time limit of "):
            let number = text.dropFirst("stopped: wall-time limit of ".count).prefix { $0.isNumber || $0 == "." }
            self = .wallLimitReached(seconds: Double(number) ?? 0)
        default:
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a run outcome: \(text)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
    }
}
