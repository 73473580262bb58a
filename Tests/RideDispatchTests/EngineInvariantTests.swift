import City
import Testing

@testable import RideDispatch

/// The engine checks its books after every command in debug builds; these tests show the check
/// finds each kind of disagreement (state changed behind the funnel, as a bug would).
@Suite("Dispatch engine: its books checked after every command")
struct EngineInvariantTests {
    let a = DriverID(1), b = DriverID(2), ride = RequestID(1)

    /// An engine with a ride offered to driver `a` (driver `b` idle far away).
    func offered() throws -> DispatchEngine {
        let engine = Fixture().engine
        try engine.driverOnline(a, at: Fixture.node(0, 0), now: 0)
        try engine.driverOnline(b, at: Fixture.node(8, 8), now: 0)
        try engine.submit(RideRequest(id: ride, rider: 1, origin: Fixture.node(1, 0), destination: Fixture.node(5, 0)), now: 1)
        return engine
    }

    @Test("Books kept through the funnel agree at every step of a ride")
    func soundRide() throws {
        var fixture = Fixture()
        let engine = fixture.engine
        try engine.driverOnline(a, at: Fixture.node(0, 0), now: 0)
        #expect(engine.brokenInvariant() == nil)
        try engine.submit(RideRequest(id: ride, rider: 1, origin: Fixture.node(1, 0), destination: Fixture.node(5, 0)), now: 1)
        #expect(engine.brokenInvariant() == nil)
        try engine.respond(driver: a, to: ride, accept: true, now: 2)
        #expect(engine.brokenInvariant() == nil)
        try fixture.arrive(a)
        #expect(engine.brokenInvariant() == nil)
        try fixture.arrive(a)
        #expect(engine.brokenInvariant() == nil && engine.unfinishedCount == 0)
    }

    @Test(
        "An offer lost from the driver's record, a request left out of matching, a wrong count and a stranger's stop are each named"
    )
    func disagreementsNamed() throws {
        var engine = try offered()
        engine.drivers[a]?.offer = nil
        #expect(engine.brokenInvariant() == "request 1 is offered to driver 1, who holds no offer of it")

        engine = try offered()
        engine.waiting.remove(ride)
        #expect(engine.brokenInvariant() == "request 1 is offered but not in matching")

        engine = try offered()
        engine.unfinishedCount = 3
        #expect(engine.brokenInvariant() == "1 requests are unfinished, the count says 3")

        engine = try offered()
        engine.drivers[b]?.stops = [Stop(.pickup, ride, at: Fixture.node(1, 0))]
        #expect(engine.brokenInvariant() == "driver 2: plans a pickup for request 1, which is not theirs")

        engine = try offered()
        engine.drivers[b]?.online = false
        engine.drivers[b]?.stops = [Stop(.dropoff, RequestID(9), at: 0)]
        #expect(engine.brokenInvariant() == "driver 2: offline with a plan, an offer or a leg")
    }
}
