/// The faults a stress run injects, each with its rate; the seed makes the choices repeatable.
public struct ChaosPlan: Sendable, Equatable {
    /// Mean wall time between kills (SIGKILL) of a random driver or rider process, or `nil`.
    public var killEvery: Duration?
    /// Malformed frames sent to dispatch's sessions socket per wall second.
    public var malformedPerSecond: Double
    /// Stop the monitor (SIGSTOP) for `stallFor` every this much wall time: a slow consumer.
    public var stallMonitorEvery: Duration?
    public var stallFor: Duration
    /// Messages per wall second published on the bus under a topic nobody subscribes to, to load
    /// the proxy: a flood.
    public var floodPerSecond: Double
    /// Forged commands per wall second: a session of its own acting for others' riders and
    /// drivers (seen on the bus), stopping dispatch, asking for its state.
    public var forgePerSecond: Double
    public var seed: UInt64

    public init(
        killEvery: Duration? = nil, malformedPerSecond: Double = 0,
        stallMonitorEvery: Duration? = nil, stallFor: Duration = .seconds(2), floodPerSecond: Double = 0,
        forgePerSecond: Double = 0,
        seed: UInt64 = 1
    ) {
        self.killEvery = killEvery
        self.malformedPerSecond = malformedPerSecond
        self.stallMonitorEvery = stallMonitorEvery
        self.stallFor = stallFor
        self.floodPerSecond = floodPerSecond
        self.forgePerSecond = forgePerSecond
        self.seed = seed
    }

    /// The same plan without the random kills (virtual time plans them at simulated instants).
    public var withoutRandomKills: ChaosPlan {
        var plan = self
        plan.killEvery = nil
        return plan
    }

    /// Whether any fault is asked for.
    public var isEmpty: Bool {
        killEvery == nil && malformedPerSecond <= 0 && stallMonitorEvery == nil && floodPerSecond <= 0 && forgePerSecond <= 0
    }
}

/// What a stress run injected.
public struct ChaosCounts: Codable, Sendable, Equatable {
    public var kills: [String] = []
    public var malformedSent = 0
    /// Malformed frames that may have died unread in a killed dispatch's socket: a second's worth
    /// per kill of dispatch.
    public var malformedMayBeLost = 0
    public var monitorStalls = 0
    public var floodSent = 0
    /// Forged commands sent, answered FORBIDDEN, and answered as done (which must be none).
    public var forgedSent = 0
    public var forgedRefused = 0
    public var forgedApplied = 0
    public var firstForgeryApplied: String?
    /// Forged publications on the bus (dispatch's events, another process's status, window
    /// openings), sent with the forger's own key: the bus must forward none.
    public var forgedPublished = 0
    /// For each time dispatch was killed: wall seconds from the kill until it served again
    /// (restored from its journal and ready).
    public var dispatchRecoverySeconds: [Double] = []
}
