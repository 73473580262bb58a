/// Why the desk ends a session, and what it then tells the riders whose requests it cancels and
/// the bus.
enum SessionEnd: Equatable {
    /// The host said Goodbye.
    case saidGoodbye
    /// Nothing was heard from it for longer than the session timeout.
    case expired
    /// Its process started again and said Hello on the session `by`: the life before is gone.
    case superseded(by: String)

    /// The reason a rider's open request is cancelled with.
    var riderReason: String {
        switch self {
        case .saidGoodbye: "the rider's session ended"
        case .expired: "the rider's session expired"
        case .superseded: "the rider's process started again"
        }
    }

    /// The reason the bus's session event gives.
    func eventReason(timeoutMs: UInt32) -> String {
        switch self {
        case .saidGoodbye: "said goodbye"
        case .expired: "silent for more than \(timeoutMs) ms"
        case .superseded(let session): "its process started again (session \(session))"
        }
    }
}
