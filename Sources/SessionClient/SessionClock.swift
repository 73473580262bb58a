/// Simulated time on a session's side: dispatch's time when the session opened (its Welcome),
/// advanced at the run's speed by the wall clock since.
public struct SessionClock: Sendable {
    public let origin: Double
    public let wallOrigin: ContinuousClock.Instant
    /// Simulated seconds per wall second.
    public let speed: Double

    public init(origin: Double, speed: Double, wallOrigin: ContinuousClock.Instant = .now) {
        self.origin = origin
        self.wallOrigin = wallOrigin
        self.speed = speed
    }

    /// Simulated seconds now.
    public func now() -> Double {
        origin + (ContinuousClock.now - wallOrigin) / .seconds(1) * speed
    }
}
