import City
import Foundation
import Randomness

/// A place where rides start and end more often, spread around its centre (normal, `radius`
/// metres standard deviation), with a weight relative to the others.
public struct HotSpot: Sendable, Equatable {
    public var centre: GeoPoint
    public var radius: Double
    public var weight: Double

    public init(centre: GeoPoint, radius: Double, weight: Double) {
        self.centre = centre
        self.radius = radius
        self.weight = weight
    }
}

/// Synthetic demand: Poisson arrivals whose rate follows a time-of-day profile, origins and
/// destinations drawn from hot spots and a uniform background over the city (or destinations
/// from an origin–destination model), seeded.
public struct SyntheticDemand: Sendable {
    /// Requests per hour at the profile's peak.
    public var peakRequestsPerHour: Double
    public var profile: HourlyProfile
    /// The time of day, in seconds after midnight, at the start of the run.
    public var startSecondOfDay: Double
    public var hotSpots: [HotSpot]
    /// Weight of the uniform background against the hot spots' weights.
    public var backgroundWeight: Double
    /// Straight-line distance below which a trip is redrawn.
    public var minimumTripMetres: Double
    /// Requests at even intervals (at the peak rate, profile ignored) instead of Poisson
    /// arrivals: SUMO's reference run spreads its requests so.
    public var evenlySpaced: Bool

    public init(
        peakRequestsPerHour: Double, profile: HourlyProfile = .flat, startSecondOfDay: Double = 0,
        hotSpots: [HotSpot] = [], backgroundWeight: Double = 1, minimumTripMetres: Double = 500,
        evenlySpaced: Bool = false
    ) {
        self.peakRequestsPerHour = peakRequestsPerHour
        self.profile = profile
        self.startSecondOfDay = startSecondOfDay
        self.hotSpots = hotSpots
        self.backgroundWeight = backgroundWeight
        self.minimumTripMetres = minimumTripMetres
        self.evenlySpaced = evenlySpaced
    }

    /// The rides wanted over `duration` seconds in the box `area`; destinations come from
    /// `destinations` when given (kept inside the box), else from the same mixture as origins.
    /// `place` moves a drawn point to where a ride can really start or end (the nearest road
    /// corner, say; `nil` to redraw it), so that the minimum trip length holds between those.
    public func generate(
        duration: Double, area: GeoBox, seed: UInt64, destinations: ODModel? = nil,
        place: (GeoPoint) -> GeoPoint? = { $0 }
    ) -> [DemandTrip] {
        var random = SeededGenerator(seed: seed)
        let peak = peakRequestsPerHour / 3_600
        guard peak > 0 else { return [] }
        var trips: [DemandTrip] = []
        var time = 0.0
        while true {
            if evenlySpaced {
                time = Double(trips.count) / peak
                guard time < duration else { break }
            } else {
                // Thinning (Lewis–Shedler): candidates at the peak rate, kept at the profile's share.
                time += -log(1 - Double.random(in: 0..<1, using: &random)) / peak
                guard time < duration else { break }
                guard Double.random(in: 0..<1, using: &random) < profile.rate(at: startSecondOfDay + time) else { continue }
            }
            for _ in 0..<50 {
                let drawn = point(in: area, using: &random)
                let destination =
                    destinations.flatMap { $0.destination(from: drawn, using: &random, accept: area.contains) }
                    ?? point(in: area, using: &random)
                guard let origin = place(drawn), let destination = place(destination) else { continue }
                if origin.distance(to: destination) >= minimumTripMetres {
                    trips.append(DemandTrip(time: time, origin: origin, destination: destination))
                    break
                }
            }
        }
        return trips
    }

    private func point(in area: GeoBox, using random: inout SeededGenerator) -> GeoPoint {
        let total = backgroundWeight + hotSpots.reduce(0) { $0 + $1.weight }
        var pick = Double.random(in: 0..<total, using: &random) - backgroundWeight
        if pick >= 0 {
            for spot in hotSpots {
                pick -= spot.weight
                guard pick < 0 else { continue }
                let projection = LocalProjection(origin: spot.centre)
                for _ in 0..<20 {
                    // Box–Muller: two independent standard normal draws.
                    let u = 1 - Double.random(in: 0..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
                    let r = (-2 * log(u)).squareRoot() * spot.radius
                    let point = projection.unproject(x: r * cos(2 * .pi * v), y: r * sin(2 * .pi * v))
                    if area.contains(point) { return point }
                }
                return spot.centre
            }
        }
        return GeoPoint(
            lat: Double.random(in: area.south...area.north, using: &random),
            lon: Double.random(in: area.west...area.east, using: &random))
    }
}

/// A box of latitudes and longitudes.
public struct GeoBox: Sendable, Equatable {
    public var south: Double, west: Double, north: Double, east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// The smallest box around `points`.
    public init(around points: [GeoPoint]) {
        precondition(!points.isEmpty)
        self.init(
            south: points.map(\.lat).min()!, west: points.map(\.lon).min()!,
            north: points.map(\.lat).max()!, east: points.map(\.lon).max()!)
    }

    public func contains(_ point: GeoPoint) -> Bool {
        (south...north).contains(point.lat) && (west...east).contains(point.lon)
    }
}
