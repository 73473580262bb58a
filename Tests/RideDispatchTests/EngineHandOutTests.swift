import City
import Testing

@testable import RideDispatch

@Suite("Requests asked for across a border: frozen at home, then thawed or handed out")
struct EngineHandOutTests {
    let a = DriverID(1)
    let ride = RequestID(5)

    private func request() -> RideRequest {
        RideRequest(id: ride, rider: 5, origin: Fixture.node(1, 0), destination: Fixture.node(5, 0))
    }

    @Test("Frozen, a request is matched to nobody, even with a driver free; thawed, it is matched")
    func frozenThenThawed() throws {
        var fixture = Fixture { $0.strategy = .greedyOnArrival }
        let engine = fixture.engine
        try engine.submit(request(), now: 0)
        try engine.freeze(ride, now: 1)
        #expect(engine.progress(of: ride) == .waiting, "to its rider it still waits")
        try engine.driverOnline(a, at: Fixture.node(0, 0), now: 2)
        engine.advance(to: 30)
        #expect(!fixture.events().contains { if case .offered = $0 { true } else { false } })
        try engine.thaw(ride, now: 31)
        #expect(fixture.events().contains { if case .offered(self.ride, self.a, _, _) = $0 { true } else { false } })
    }

    @Test("Handed out, a request is over here without an ending: no outcome, not cancellable, not counted, no broken promise")
    func handedOut() throws {
        var fixture = Fixture()
        let engine = fixture.engine
        let kpis = KPIRecorder(graph: Fixture.city.build(), durationLimit: 3_600)
        let checker = InvariantChecker(poolCapacity: 2)
        try engine.submit(request(), now: 0)
        try engine.freeze(ride, now: 1)
        try engine.handOut(ride, to: 2, now: 2)
        _ = fixture.events()
        kpis.record(fixture.log)
        checker.record(fixture.log)
        #expect(fixture.log.last?.event == .handedOut(ride, shard: 2))
        #expect(engine.outcome(of: ride) == nil && engine.progress(of: ride) == nil && engine.unfinishedRequests.isEmpty)
        #expect(throws: DispatchRefusal(reason: "request 5 was handed over to shard 2")) {
            try engine.cancel(ride, by: .rider, reason: "late", now: 3)
        }
        #expect(kpis.report.requests == 0, "counted at the shard that has it last")
        #expect(checker.violations.isEmpty)
        engine.advance(to: 4_000)
        #expect(fixture.events().allSatisfy { if case .finished = $0 { false } else { true } }, "it never ends here")
    }

    @Test("Only a waiting request freezes; only a frozen one thaws or leaves; a frozen one may be cancelled by its rider")
    func refusals() throws {
        let fixture = Fixture { $0.strategy = .greedyOnArrival }
        let engine = fixture.engine
        #expect(throws: DispatchRefusal(reason: "request 5 is unknown")) { try engine.freeze(ride, now: 0) }
        try engine.submit(request(), now: 0)
        #expect(throws: DispatchRefusal(reason: "request 5 is not frozen")) { try engine.thaw(ride, now: 1) }
        #expect(throws: DispatchRefusal(reason: "request 5 is not frozen")) { try engine.handOut(ride, to: 1, now: 1) }
        try engine.freeze(ride, now: 1)
        #expect(throws: DispatchRefusal(reason: "request 5 is not waiting for a match")) { try engine.freeze(ride, now: 2) }
        try engine.cancel(ride, by: .rider, reason: "changed my mind", now: 3)
        #expect(engine.outcome(of: ride) == .cancelled(by: .rider, reason: "changed my mind"))
    }

    @Test("The wait limit does not run out while frozen; thawed late, the request is rejected by its first wait's limit")
    func waitLimit() throws {
        var fixture = Fixture { $0.maxMatchWaitSeconds = 60 }
        let engine = fixture.engine
        try engine.submit(request(), now: 0)
        try engine.freeze(ride, now: 10)
        engine.advance(to: 100)
        #expect(engine.outcome(of: ride) == nil, "frozen: not rejected")
        try engine.thaw(ride, now: 101)
        engine.advance(to: 102)
        #expect(engine.outcome(of: ride) == .rejected(reason: "no driver could be matched within 60 s"))
        _ = fixture.events()
    }
}
