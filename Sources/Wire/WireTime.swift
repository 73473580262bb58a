import SimulatedTime

// Simulated times on the wire are whole milliseconds since the run's start (`*_ms` fields); these
// read and write them as `SimTime`, by its one rule, so that no process converts them its own way.

extension Envelope {
    /// When the sender sent it, on the run's simulated clock (zero: not stamped).
    public var simTime: SimTime {
        get { SimTime(wireMilliseconds: simTimeMs) }
        set { simTimeMs = newValue.wireMilliseconds }
    }
}

extension Welcome {
    /// Dispatch's simulated time when it welcomed the session.
    public var simTime: SimTime {
        get { SimTime(wireMilliseconds: simTimeMs) }
        set { simTimeMs = newValue.wireMilliseconds }
    }
}

extension DriveTo {
    /// When the leg starts and when it reaches its end.
    public var departure: SimTime { SimTime(wireMilliseconds: departAtMs) }
    public var arrival: SimTime { SimTime(wireMilliseconds: arriveAtMs) }
}

extension Offer {
    /// When the offer lapses unanswered.
    public var expiry: SimTime { SimTime(wireMilliseconds: expiresAtMs) }
}

extension RideRequest {
    /// When a scheduled ride wants its pickup; nil for a ride now.
    public var scheduledPickup: SimTime? {
        get { scheduledPickupMs > 0 ? SimTime(wireMilliseconds: scheduledPickupMs) : nil }
        set { scheduledPickupMs = newValue?.wireMilliseconds ?? 0 }
    }
}

extension ProcessStatus {
    /// How far the process fell behind the clock since its last report.
    public var lag: SimDuration {
        get { SimDuration(wireMilliseconds: Int64(lagMs)) }
        set { lagMs = UInt32(clamping: max(0, newValue.wireMilliseconds)) }
    }
}
