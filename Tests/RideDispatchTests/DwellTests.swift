import City
import Testing

@testable import RideDispatch

@Suite("Dispatch engine: a car stands at its stops for the dwell times")
struct DwellTests {
    let a = DriverID(1)

    /// Driver `a` online at (0, 0) has accepted a ride from (1, 0) to (3, 0); its leg to the pickup.
    func acceptedRide(_ fixture: inout Fixture) throws -> (RideRequest, Leg) {
        try fixture.engine.driverOnline(a, at: Fixture.node(0, 0), now: 0)
        let ride = RideRequest(id: RequestID(1), rider: 1, origin: Fixture.node(1, 0), destination: Fixture.node(3, 0))
        try fixture.engine.submit(ride, now: 1)
        try fixture.engine.respond(driver: a, to: ride.id, accept: true, now: 2)
        _ = fixture.events()
        return (ride, try #require(fixture.lastLeg(of: a)))
    }

    @Test("The trip leg leaves the pickup after the pickup dwell, and the next pickup ETA counts the drop-off dwell")
    func dwellDelaysDeparturesAndETAs() throws {
        var fixture = Fixture {
            $0.pickupDwellSeconds = 30
            $0.dropoffDwellSeconds = 60
        }
        let engine = fixture.engine
        let (ride, toPickup) = try acceptedRide(&fixture)
        try fixture.arrive(a)
        _ = fixture.events()
        let trip = try #require(fixture.lastLeg(of: a))
        #expect(trip.number == toPickup.number + 1)
        #expect(trip.timeline.departure == toPickup.timeline.arrival + 30)
        // 500 m at 36 km/h: 50 s of driving after the 30 s standing.
        #expect(abs(trip.timeline.arrival - (toPickup.timeline.arrival + 80)) < 0.01)
        try fixture.arrive(a)
        #expect(engine.outcome(of: ride.id).map { if case .completed = $0 { true } else { false } } == true)
        let droppedAt = trip.timeline.arrival
        // A quote now: the driver is idle at (3, 0) but stands there for 60 s more.
        let quote = try #require(engine.quote(from: Fixture.node(3, 0), to: Fixture.node(5, 0), now: droppedAt))
        #expect(quote.pickupETA.map { abs($0 - 60) < 0.01 } == true)
        let later = try #require(engine.quote(from: Fixture.node(3, 0), to: Fixture.node(5, 0), now: droppedAt + 45))
        #expect(later.pickupETA.map { abs($0 - 15) < 0.01 } == true)
    }

    @Test("Without dwell times a car drives on at once (the default)")
    func noDwellByDefault() throws {
        var fixture = Fixture()
        let (_, toPickup) = try acceptedRide(&fixture)
        try fixture.arrive(a)
        _ = fixture.events()
        #expect(try #require(fixture.lastLeg(of: a)).timeline.departure == toPickup.timeline.arrival)
    }
}
