/// How dispatch matches riders to drivers.
public enum MatchingStrategy: Sendable, Equatable, CustomStringConvertible {
    /// Each request, as it arrives, goes to the idle driver who can reach it soonest.
    case greedyOnArrival
    /// Every `interval` seconds, waiting requests in arrival order each take the idle driver who
    /// can reach them soonest (SUMO's `greedy` taxi dispatch).
    case greedy(interval: Double)
    /// Every `window` seconds, the assignment of waiting requests to idle drivers that minimises
    /// the total pickup time (an optimal assignment by min-cost flow).
    case batched(window: Double)

    /// Seconds between matching rounds (nil: each request is matched as it arrives).
    public var interval: Double? {
        switch self {
        case .greedyOnArrival: nil
        case .greedy(let interval): interval
        case .batched(let window): window
        }
    }

    public var description: String {
        switch self {
        case .greedyOnArrival: "greedy on arrival"
        case .greedy(let interval): "greedy every \(Int(interval)) s"
        case .batched(let window): "batched every \(Int(window)) s"
        }
    }
}

/// Idle drivers moving toward zones of unmet demand.
public enum RebalancingStrategy: Sendable, Equatable {
    case off
    /// Every `interval` seconds, up to `maxMoves` idle drivers in zones with more drivers than
    /// demand drive to the nearest zones with more demand than drivers.
    case towardUnmetDemand(interval: Double, maxMoves: Int)
}

/// Everything that tunes a ``DispatchEngine``.
public struct DispatchConfiguration: Sendable, Equatable {
    public var strategy: MatchingStrategy = .greedyOnArrival
    /// The farthest (in seconds of driving) a driver is sent to pick someone up.
    public var maxPickupSeconds: Double = 900
    /// A request nobody could be matched to in this long is rejected.
    public var maxMatchWaitSeconds: Double = 600
    /// How long a driver has to answer an offer.
    public var offerTimeoutSeconds: Double = 15
    /// Nearest idle drivers (by straight line) whose driving time is computed for each request.
    public var candidatesPerRequest: Int = 8
    /// The same for batched matching, whose assignment is optimal over these candidates: more
    /// cost time and save pickup time (see docs/PERFORMANCE.md).
    public var batchCandidatesPerRequest: Int = 16
    public var pricing = Pricing()
    /// Side of the square surge and rebalancing zones, in metres.
    public var zoneSize: Double = 1_000
    /// Surge: the rate of requests over the last `surgeWindowSeconds`, as requests expected in
    /// the next `surgeHorizonSeconds`, against idle drivers, per zone.
    public var surgeWindowSeconds: Double = 600
    public var surgeHorizonSeconds: Double = 180
    public var surgeSensitivity: Double = 0.25
    public var maxSurge: Double = 3
    /// POOL: riders per shared vehicle, and how much longer than alone a shared ride may take
    /// (factor of the direct time plus fixed seconds).
    public var poolCapacity: Int = 2
    public var poolDetourFactor: Double = 0.5
    public var poolDetourSeconds: Double = 180
    /// Scheduled rides enter matching this long before their pickup time.
    public var scheduledLeadSeconds: Double = 900
    public var rebalancing: RebalancingStrategy = .off
    /// Seconds a car stands at a pickup while the rider gets in, and at a drop-off while they
    /// pay and get out, before it drives on or can start the next ride.
    public var pickupDwellSeconds: Double = 0
    public var dropoffDwellSeconds: Double = 0

    public init() {}
}

extension DispatchConfiguration {
    /// How long a stop of `kind` takes.
    func dwellSeconds(at kind: Stop.Kind) -> Double {
        switch kind {
        case .pickup: pickupDwellSeconds
        case .dropoff: dropoffDwellSeconds
        }
    }
}
