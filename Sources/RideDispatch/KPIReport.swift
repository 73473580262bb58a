/// The numbers a run is judged by.
public struct KPIReport: Sendable, Equatable {
    public var requests = 0
    /// Requests matched to a driver at least once.
    public var matched = 0
    public var completed = 0
    public var cancelled = 0
    public var cancelledByRider = 0
    public var cancelledByDriver = 0
    public var rejected = 0
    /// Completed with the dropoff before a time limit (the run's duration).
    public var completedWithinDuration = 0
    /// Seconds from request (or scheduled pickup time) to first match, to pickup, and aboard.
    public var timeToMatch = Distribution()
    public var pickupWait = Distribution()
    public var inVehicle = Distribution()
    /// Driver-seconds online in each state.
    public var driverSeconds: [DriverState: Double] = [:]
    /// Metres driven with nobody aboard (to pickups, repositioning) and with riders.
    public var emptyMetres = 0.0
    public var loadedMetres = 0.0
    /// Surge multipliers quoted to riders, and how often.
    public var surgeQuoted: [Double: Int] = [:]
    public var ridersPaidCents = 0
    public var driversEarnedCents = 0
    public var platformCents = 0

    /// Share of online driver time spent in `state`.
    public func utilisation(_ state: DriverState) -> Double {
        let online = driverSeconds.filter { $0.key != .offline }.values.reduce(0, +)
        return online > 0 ? (driverSeconds[state] ?? 0) / online : 0
    }

    /// Share of distance driven with nobody aboard.
    public var deadheadShare: Double {
        emptyMetres + loadedMetres > 0 ? emptyMetres / (emptyMetres + loadedMetres) : 0
    }
}

/// Samples of a duration, with exact percentiles.
public struct Distribution: Sendable, Equatable {
    public private(set) var samples: [Double] = []
    private var sorted = true

    public init() {}

    public mutating func add(_ value: Double) {
        if let last = samples.last, value < last { sorted = false }
        samples.append(value)
    }

    public var count: Int { samples.count }
    public var mean: Double { samples.isEmpty ? 0 : samples.reduce(0, +) / Double(samples.count) }

    /// The value below which `fraction` of the samples lie (nearest rank); 0 when empty.
    public func percentile(_ fraction: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let ordered = sorted ? samples : samples.sorted()
        let rank = Int((fraction * Double(ordered.count)).rounded(.up)) - 1
        return ordered[min(ordered.count - 1, max(0, rank))]
    }
}
