/// Who ended a ride before it was completed.
public enum Party: String, Sendable, Hashable, Codable, CaseIterable {
    case rider, driver, dispatch
}

/// How a request ended. Every request reaches exactly one of these.
public enum RequestOutcome: Sendable, Equatable, Codable {
    case completed(Fare)
    case cancelled(by: Party, reason: String)
    case rejected(reason: String)

    /// A short name for counting and display.
    public var kind: String {
        switch self {
        case .completed: "completed"
        case .cancelled: "cancelled"
        case .rejected: "rejected"
        }
    }
}
