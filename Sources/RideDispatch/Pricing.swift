/// How fares are computed: a base, a rate per kilometre and per minute of the direct route, a
/// minimum, the zone's surge, a discount for shared rides, and the platform's commission.
/// Amounts are whole cents so that money is conserved exactly.
public struct Pricing: Sendable, Equatable {
    public var baseCents: Int
    public var centsPerKm: Int
    public var centsPerMinute: Int
    public var minimumCents: Int
    /// The shared ride's price as a fraction of the same ride alone.
    public var poolFactor: Double
    /// The platform's share of each fare, in percent; the driver earns the rest.
    public var commissionPercent: Int

    public init(
        baseCents: Int = 250, centsPerKm: Int = 110, centsPerMinute: Int = 35, minimumCents: Int = 800,
        poolFactor: Double = 0.75, commissionPercent: Int = 25
    ) {
        self.baseCents = baseCents
        self.centsPerKm = centsPerKm
        self.centsPerMinute = centsPerMinute
        self.minimumCents = minimumCents
        self.poolFactor = poolFactor
        self.commissionPercent = commissionPercent
    }

    /// The price of a ride whose direct route is `metres` long and takes `seconds`.
    public func priceCents(metres: Double, seconds: Double, surge: Double, product: RideRequest.Product) -> Int {
        let distanceAndTime = Double(baseCents) + Double(centsPerKm) * metres / 1000 + Double(centsPerMinute) * seconds / 60
        let fare = max(Double(minimumCents), distanceAndTime) * surge * (product == .pool ? poolFactor : 1)
        return Int(fare.rounded())
    }

    /// Splits what the rider pays into the driver's earnings and the platform's commission.
    public func split(_ cents: Int) -> Fare {
        let platform = cents * commissionPercent / 100
        return Fare(riderPaysCents: cents, driverEarnsCents: cents - platform, platformCents: platform)
    }
}

/// What a completed ride cost and who got what. `riderPaysCents == driverEarnsCents + platformCents`.
public struct Fare: Sendable, Equatable, Codable {
    public let riderPaysCents: Int
    public let driverEarnsCents: Int
    public let platformCents: Int

    public var isConserved: Bool {
        riderPaysCents >= 0 && driverEarnsCents >= 0 && platformCents >= 0
            && riderPaysCents == driverEarnsCents + platformCents
    }
}

/// An upfront price and pickup estimate for a ride.
public struct Quote: Sendable, Equatable, Codable {
    public let priceCents: Int
    public let surge: Double
    /// Seconds until the nearest idle driver could arrive, if any is within reach (estimated for
    /// quotes; `nil` in the quote recorded with a submitted request, which is matched instead).
    public let pickupETA: Double?
    /// The direct route's time in seconds and length in metres.
    public let tripSeconds: Double
    public let tripMetres: Double
}
