/// The requests a host in virtual time sent and has no reply to yet, with their timeouts in a
/// queue: a host asks for the earliest timeout after every event it handles, so it must not look
/// at every request each time. All changes go through here, so the two never disagree.
struct PendingRequests {
    private var byID: [String: VirtualHost.Pending] = [:]
    private var deadlines = WakeQueue()

    var isEmpty: Bool { byID.isEmpty }

    /// Holds `request` under its message id until it is answered or given up.
    mutating func add(_ request: VirtualHost.Pending, id: String) {
        byID[id] = request
        deadlines.remove(id)
        deadlines.wake(id, at: request.deadline)
        assert(byID.count == deadlines.all.count, "a pending request without its timeout, or the reverse")
    }

    /// Takes out the request answered (or given up) under `id`.
    mutating func remove(_ id: String) -> VirtualHost.Pending? {
        deadlines.remove(id)
        return byID.removeValue(forKey: id)
    }

    /// The request under `id`, if it is still waiting.
    subscript(id: String) -> VirtualHost.Pending? { byID[id] }

    /// When the earliest request times out.
    mutating func earliestDeadline() -> Double? { deadlines.earliest() }

    /// The id of the request that timed out first at or before `time` (ties by id), its timeout
    /// taken out of the queue (``add(_:id:)`` it again to wait once more).
    mutating func popDue(by time: Double) -> String? { deadlines.popDue(by: time)?.id }
}
