/// What a request handed over from one dispatch shard to another keeps from where it was asked
/// for: when its rider asked (pickup waits count from there, not from the handover) and the price
/// its pickup zone's owner quoted (pricing and surge stay with the zone's owner).
public struct RequestProvenance: Sendable, Equatable, Codable {
    public let requestedAt: Double
    public let priceCents: Int
    public let surge: Double

    public init(requestedAt: Double, priceCents: Int, surge: Double) {
        self.requestedAt = requestedAt
        self.priceCents = priceCents
        self.surge = surge
    }

    /// The quote a request handed over is recorded with: the route as this shard finds it, the
    /// price and surge as they were quoted where it was asked for.
    func quote(routed: Quote) -> Quote {
        Quote(
            priceCents: priceCents, surge: surge, pickupETA: nil, tripSeconds: routed.tripSeconds, tripMetres: routed.tripMetres)
    }
}
