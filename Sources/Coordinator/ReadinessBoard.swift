import Wire

/// Which processes have said on the bus that they are ready (`Ready` on `control.ready`), by
/// name and pid: a restarted process is ready when its new pid has said so, never on the strength
/// of an earlier start.
public actor ReadinessBoard {
    private var ready: [String: Set<Int32>] = [:]

    public init() {}

    /// Takes the `Ready` announcements among bus envelopes.
    public func apply(_ envelopes: [Envelope]) {
        for envelope in envelopes {
            guard case .ready(let announcement)? = envelope.body else { continue }
            ready[announcement.processID, default: []].insert(announcement.pid)
        }
    }

    /// Whether process `name` running as `pid` has announced itself.
    public func isReady(_ name: String, pid: Int32) -> Bool { ready[name]?.contains(pid) ?? false }
}
