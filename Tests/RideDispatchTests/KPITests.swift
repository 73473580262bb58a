import City
import Testing

@testable import RideDispatch

@Suite("KPIs and quotes, from known rides")
struct KPITests {
    let a = DriverID(1)

    @Test("One ride's KPIs: waits, time in the vehicle, driver time by state, loaded and empty distance")
    func oneRide() throws {
        var fixture = Fixture()
        let engine = fixture.engine
        try engine.driverOnline(a, at: Fixture.node(0, 0), now: 0)
        // Pickup 2 blocks away (50 s), trip 4 blocks (100 s); the driver answers after 10 s.
        try engine.submit(
            RideRequest(id: RequestID(1), rider: 1, origin: Fixture.node(2, 0), destination: Fixture.node(6, 0)), now: 0)
        try engine.respond(driver: a, to: RequestID(1), accept: true, now: 10)
        try fixture.arrive(a)
        try fixture.arrive(a)
        _ = fixture.events()
        let recorder = KPIRecorder(graph: engine.graph, durationLimit: 100)
        recorder.record(fixture.log)
        let report = recorder.finish(at: 200)
        #expect(report.requests == 1 && report.matched == 1 && report.completed == 1)
        #expect(report.completedWithinDuration == 0, "dropped off at 160 s, after the 100 s limit")
        #expect(report.timeToMatch.samples == [10])
        #expect(report.pickupWait.samples == [60])
        #expect(report.inVehicle.samples == [100])
        #expect(report.driverSeconds[.offered] == 10 && report.driverSeconds[.enRoute] == 50)
        #expect(report.driverSeconds[.onTrip] == 100 && report.driverSeconds[.idle] == 40)
        #expect(abs(report.utilisation(.onTrip) - 0.5) < 1e-9)
        #expect(abs(report.emptyMetres - 500) < 1e-6 && abs(report.loadedMetres - 1_000) < 1e-6)
        #expect(abs(report.deadheadShare - 1.0 / 3) < 1e-9)
        #expect(report.surgeQuoted == [1: 1])
        #expect(report.ridersPaidCents == report.driversEarnedCents + report.platformCents && report.ridersPaidCents > 0)
    }

    @Test("A quote: price from the direct route, and the nearest idle driver's pickup time")
    func quote() throws {
        let engine = Fixture().engine
        let pricing = engine.configuration.pricing
        let empty = try #require(engine.quote(from: Fixture.node(0, 0), to: Fixture.node(8, 8), now: 0))
        #expect(empty.pickupETA == nil, "no driver online")
        #expect(empty.tripMetres == 4_000 && empty.tripSeconds == 400)
        #expect(empty.priceCents == pricing.priceCents(metres: 4_000, seconds: 400, surge: 1, product: .standard))
        try engine.driverOnline(a, at: Fixture.node(3, 0), now: 0)
        let quoted = try #require(engine.quote(from: Fixture.node(0, 0), to: Fixture.node(8, 8), product: .pool, now: 1))
        #expect(quoted.pickupETA == 75)
        #expect(quoted.priceCents < empty.priceCents, "POOL is cheaper")
        #expect(engine.quote(from: -1, to: 3, now: 2) == nil)
    }

    @Test(
        "A rider's quotes of both products at one instant share one pickup estimate, and a driver who comes online or takes a ride between them changes it"
    )
    func pickupEstimateAtOneInstant() throws {
        let engine = Fixture().engine
        try engine.driverOnline(a, at: Fixture.node(3, 0), now: 0)
        let standard = try #require(engine.quote(from: Fixture.node(0, 0), to: Fixture.node(8, 8), now: 1))
        let pool = try #require(engine.quote(from: Fixture.node(0, 0), to: Fixture.node(8, 8), product: .pool, now: 1))
        #expect(standard.pickupETA == 75 && pool.pickupETA == 75)
        // A nearer driver, online at the same instant, is seen by the next quote from there.
        try engine.driverOnline(DriverID(2), at: Fixture.node(1, 0), now: 1)
        let nearer = try #require(engine.quote(from: Fixture.node(0, 0), to: Fixture.node(8, 8), now: 1))
        #expect(nearer.pickupETA == 25)
        // Another pickup at the same instant is estimated for itself.
        let elsewhere = try #require(engine.quote(from: Fixture.node(8, 0), to: Fixture.node(8, 8), now: 1))
        #expect(elsewhere.pickupETA == 125)
        // Both drivers offered rides: nobody is left to estimate with.
        for (index, origin) in [Fixture.node(1, 0), Fixture.node(3, 0)].enumerated() {
            try engine.submit(
                RideRequest(id: RequestID(index), rider: index, origin: origin, destination: Fixture.node(8, 8)), now: 1)
        }
        #expect(try #require(engine.quote(from: Fixture.node(0, 0), to: Fixture.node(8, 8), now: 1)).pickupETA == nil)
    }

    @Test("A driver cancelling before the pickup sends the request back to matching, to someone else")
    func driverCancels() throws {
        var fixture = Fixture()
        let engine = fixture.engine
        let b = DriverID(2)
        try engine.driverOnline(a, at: Fixture.node(0, 0), now: 0)
        try engine.driverOnline(b, at: Fixture.node(8, 8), now: 0)
        try engine.submit(
            RideRequest(id: RequestID(1), rider: 1, origin: Fixture.node(1, 0), destination: Fixture.node(5, 5)), now: 0)
        try engine.respond(driver: a, to: RequestID(1), accept: true, now: 1)
        try engine.cancel(RequestID(1), by: .driver, reason: "flat tyre", now: 5)
        let events = fixture.events()
        #expect(events.contains(.requeued(RequestID(1), a, reason: "flat tyre")))
        #expect(events.contains { if case .legCancelled(self.a, _) = $0 { true } else { false } })
        #expect(events.contains { if case .offered(RequestID(1), b, _, _) = $0 { true } else { false } })
        #expect(engine.state(of: a) == .idle && engine.outcome(of: RequestID(1)) == nil)
    }
}
