import City
import TestSupport
import Testing

@testable import Demand
@testable import Scenarios

@Suite("Synthetic demand, the origin–destination model, replay and placement")
struct DemandModelTests {
    static let area = GeoBox(south: 40.70, west: -74.02, north: 40.75, east: -73.97)

    @Test("Poisson arrivals at the peak rate: about the expected count, seeded, all inside, long enough")
    func poisson() {
        let demand = SyntheticDemand(peakRequestsPerHour: 1_200, minimumTripMetres: 800)
        let trips = demand.generate(duration: 3_600, area: Self.area, seed: 4)
        // 1,200 expected; a Poisson count is within ±4 standard deviations (±139) all but never.
        #expect(abs(trips.count - 1_200) < 139)
        #expect(trips == demand.generate(duration: 3_600, area: Self.area, seed: 4))
        #expect(trips != demand.generate(duration: 3_600, area: Self.area, seed: 5))
        #expect(trips.allSatisfy { Self.area.contains($0.origin) && Self.area.contains($0.destination) })
        #expect(trips.allSatisfy { $0.origin.distance(to: $0.destination) >= 800 })
        #expect(zip(trips, trips.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("The time-of-day profile shapes arrivals; hot spots gather origins")
    func profileAndHotSpots() {
        var weights = [Double](repeating: 0.25, count: 24)
        weights[1] = 1
        let spot = HotSpot(centre: GeoPoint(lat: 40.72, lon: -74.00), radius: 200, weight: 3)
        let demand = SyntheticDemand(
            peakRequestsPerHour: 2_000, profile: HourlyProfile(weights: weights),
            hotSpots: [spot], backgroundWeight: 1)
        let trips = demand.generate(duration: 7_200, area: Self.area, seed: 9)
        let first = trips.filter { $0.time < 3_600 }.count, second = trips.count - first
        #expect(Double(second) / Double(first) > 3, "hour 1 is four times as busy as hour 0: \(first) then \(second)")
        let near = trips.filter { $0.origin.distance(to: spot.centre) < 600 }.count
        // Uniform origins would put about 5 % there; short trips inside the spot are redrawn, so less than 3/4.
        #expect(Double(near) / Double(trips.count) > 0.4, "the hot spot gathers origins: \(near) of \(trips.count)")
    }

    @Test("The origin–destination model moves a pickup by a real trip's displacement from the same area")
    func odModel() throws {
        let records = (0..<50).map { index in
            TripRecord(
                pickupTime: Double(index), pickup: GeoPoint(lat: 40.710, lon: -74.000),
                dropoff: GeoPoint(lat: 40.720, lon: -74.000), line: index + 2)
        }
        let model = try #require(ODModel(fitting: records))
        var random = SplitMix(seed: 1)
        let destination = try #require(model.destination(from: GeoPoint(lat: 40.7101, lon: -74.0001), using: &random))
        #expect(abs(destination.lat - 40.7201) < 1e-6 && abs(destination.lon + 74.0001) < 1e-6)
        #expect(model.destination(from: GeoPoint(lat: 40.71, lon: -74.0), using: &random, accept: { _ in false }) == nil)
        #expect(ODModel(fitting: [TripRecord(pickupTime: 0, pickup: GeoPoint(lat: 0, lon: 0), dropoff: nil, line: 2)]) == nil)
    }

    @Test("Replay folds records into one day, leaves out what is outside the map, and the profile fits their hours")
    func replay() {
        let day = CivilTime.parse("2016-01-05 00:00:00")!
        let records = [
            TripRecord(
                pickupTime: day + 8 * 3_600, pickup: GeoPoint(lat: 40.71, lon: -74.0), dropoff: GeoPoint(lat: 40.73, lon: -73.99),
                line: 2),
            TripRecord(
                pickupTime: day + 86_400 * 3 + 8 * 3_600 + 60, pickup: GeoPoint(lat: 40.72, lon: -74.0),
                dropoff: GeoPoint(lat: 40.74, lon: -73.99), line: 3),
            TripRecord(
                pickupTime: day + 9 * 3_600, pickup: GeoPoint(lat: 40.80, lon: -73.9), dropoff: GeoPoint(lat: 40.73, lon: -73.99),
                line: 4),
            TripRecord(
                pickupTime: day + 20 * 3_600, pickup: GeoPoint(lat: 40.71, lon: -74.0),
                dropoff: GeoPoint(lat: 40.73, lon: -73.99), line: 5),
        ]
        let replay = Replay(timing: .foldedIntoOneDay(startSecondOfDay: 8 * 3_600), area: Self.area)
        let (trips, leftOut) = replay.trips(from: records, duration: 4 * 3_600, destinations: nil, seed: 1)
        #expect(trips.map(\.time) == [0, 60])
        #expect(leftOut == ["pickup outside the map": 1, Replay.afterTheEnd: 1])
        let profile = HourlyProfile.fitted(on: records)
        #expect(profile.rate(at: 8 * 3_600 + 5) == 1 && profile.rate(at: 9 * 3_600) == 0.5 && profile.rate(at: 3 * 3_600) == 0)
    }

    @Test("Placement snaps rides to road nodes and leaves out those far from any road")
    func placement() {
        let city = GridCity(width: 1_000, height: 1_000, blockLength: 250, speedKmh: 36, origin: GeoPoint(lat: 40.70, lon: -74.0))
        let graph = city.build()
        let placement = DemandPlacement(graph: graph, maxSnapMetres: 100)
        let corner = graph.positions[city.node(x: 0, y: 0)], far = graph.positions[city.node(x: 4, y: 4)]
        let (trips, leftOut) = placement.place([
            DemandTrip(time: 0, origin: corner, destination: far),
            DemandTrip(time: 1, origin: GeoPoint(lat: 40.60, lon: -74.0), destination: far),
            DemandTrip(time: 2, origin: corner, destination: corner),
        ])
        #expect(trips.map(\.origin) == [city.node(x: 0, y: 0)] && trips.map(\.destination) == [city.node(x: 4, y: 4)])
        #expect(leftOut == ["origin far from any road": 1, "origin and destination at one node": 1])
    }
}
