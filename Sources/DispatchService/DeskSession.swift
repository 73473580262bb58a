import Wire

/// A connected process (a riders or drivers host, or a tool) as the desk knows it.
struct DeskSession: Codable {
    let id: String
    /// Who it acts as: what it may do and for whom.
    let principal: Principal
    /// The secret its Hellos carry: another Hello for this id is taken only with the same one.
    let token: [UInt8]
    /// The ROUTER identity it is reached at; nil while it has no line (dispatch recovered and the
    /// session has not said Hello again).
    var peer: [UInt8]?
    var lastHeard: Double
    /// Riders and drivers whose messages came through this session.
    var riders: Set<String> = []
    var drivers: Set<String> = []
}

/// Replies already sent, by the message id they answered, so that a retried request is answered
/// again instead of being acted on twice. Keeps the most recent `capacity`.
struct ReplyMemory: Codable {
    let capacity: Int
    private var replies: [String: [Outgoing]] = [:]
    private var order: [String] = []
    private var oldest = 0

    init(capacity: Int) { self.capacity = capacity }

    func replies(to key: String) -> [Outgoing]? { replies[key] }

    mutating func remember(_ key: String, _ outgoing: [Outgoing]) {
        guard replies.updateValue(outgoing, forKey: key) == nil else { return }
        order.append(key)
        if order.count - oldest > capacity {
            replies[order[oldest]] = nil
            oldest += 1
            if oldest > capacity {
                order.removeFirst(oldest)
                oldest = 0
            }
        }
    }
}
