import RideDispatch

/// Whether a waiting request is better served by a neighbour's driver (docs/ARCHITECTURE.md,
/// "Sharded dispatch"): the shard asks its neighbours near the pickup for their nearest idle
/// drivers (`DispatchEngine.nearestIdle`, which reserves nothing) and reserves across the border
/// only when that saves enough over the best driver at home — crossing costs messages and a
/// handover, so a near tie stays home.
public enum BorderChoice {
    /// A neighbour's idle driver and how soon it would reach the pickup.
    public struct Candidate: Sendable, Equatable {
        public let shard: Int
        public let driver: DriverID
        public let seconds: Double

        public init(shard: Int, driver: DriverID, seconds: Double) {
            self.shard = shard
            self.driver = driver
            self.seconds = seconds
        }
    }

    /// The neighbour's driver to reserve, or nil to match at home: the soonest of `across` (ties
    /// by shard, then driver), when there is no driver at home (`home` nil) or it reaches the
    /// pickup at least `margin` seconds sooner than the best one at home.
    public static func choose(home: Double?, across: [Candidate], margin: Double) -> Candidate? {
        guard let best = across.min(by: { ($0.seconds, $0.shard, $0.driver) < ($1.seconds, $1.shard, $1.driver) }) else {
            return nil
        }
        guard let home else { return best }
        return best.seconds + margin <= home ? best : nil
    }
}
