import City
import Testing

@testable import RideDispatch

@Suite("Holds: a neighbouring shard's reservation keeps an idle driver from being offered here")
struct EngineHoldTests {
    let a = DriverID(1), b = DriverID(2)

    @Test("A held driver is passed over by matching; released, it is offered again")
    func heldIsPassedOver() throws {
        var fixture = Fixture { $0.strategy = .greedyOnArrival }
        let engine = fixture.engine
        try engine.driverOnline(a, at: Fixture.node(0, 0), now: 0)
        try engine.driverOnline(b, at: Fixture.node(8, 8), now: 0)
        try engine.hold(a, for: "shard-1:r-9", now: 1)
        #expect(engine.hold(of: a) == "shard-1:r-9" && engine.state(of: a) == .idle)
        try engine.submit(
            RideRequest(id: RequestID(1), rider: 1, origin: Fixture.node(1, 0), destination: Fixture.node(5, 0)), now: 2)
        #expect(fixture.events().contains { if case .offered(RequestID(1), b, _, _) = $0 { true } else { false } })
        try engine.respond(driver: b, to: RequestID(1), accept: false, now: 3)
        try engine.releaseHold(a, of: "shard-1:r-9", now: 4)
        #expect(engine.hold(of: a) == nil)
        #expect(fixture.events().contains { if case .offered(RequestID(1), a, _, _) = $0 { true } else { false } })
    }

    @Test("Refused: a driver who is offline, offered, on a plan or already held; a release by another reservation")
    func refusals() throws {
        let fixture = Fixture { $0.strategy = .greedyOnArrival }
        let engine = fixture.engine
        #expect(throws: DispatchRefusal(reason: "driver 1 is not online")) { try engine.hold(a, for: "x", now: 0) }
        try engine.driverOnline(a, at: Fixture.node(0, 0), now: 0)
        try engine.hold(a, for: "x", now: 0)
        #expect(throws: DispatchRefusal(reason: "driver 1 is already held for x")) { try engine.hold(a, for: "y", now: 1) }
        #expect(throws: DispatchRefusal(reason: "driver 1 is not held for y")) { try engine.releaseHold(a, of: "y", now: 1) }
        try engine.releaseHold(a, of: "x", now: 1)
        try engine.submit(
            RideRequest(id: RequestID(1), rider: 1, origin: Fixture.node(1, 0), destination: Fixture.node(5, 0)), now: 2)
        #expect(engine.state(of: a) == .offered)
        #expect(throws: DispatchRefusal(reason: "driver 1 is not idle (offered)")) { try engine.hold(a, for: "z", now: 3) }
    }

    @Test("A held driver who goes offline is held no more; the hold is in the engine's snapshot")
    func offlineAndSnapshot() throws {
        let fixture = Fixture()
        let engine = fixture.engine
        try engine.driverOnline(a, at: Fixture.node(0, 0), now: 0)
        try engine.driverOnline(b, at: Fixture.node(2, 2), now: 0)
        try engine.hold(b, for: "r", now: 1)
        let restored = DispatchEngine(planner: PathFinder(graph: Fixture.city.build()), configuration: engine.configuration)
        restored.restore(engine.state)
        #expect(restored.hold(of: b) == "r")
        try engine.driverOffline(b, now: 2)
        #expect(engine.hold(of: b) == nil)
        #expect(throws: DispatchRefusal.self) { try engine.releaseHold(b, of: "r", now: 3) }
    }
}
