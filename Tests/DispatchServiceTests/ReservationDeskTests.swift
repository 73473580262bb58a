import City
import RideDispatch
import TestSupport
import Testing

@testable import DispatchService

@Suite("Reservations across a border: the owner grants or refuses in its own order; a driver is never in two hands")
struct ReservationDeskTests {
    static let city = GridCity(width: 2_000, height: 2_000, blockLength: 250, speedKmh: 36)
    static func node(_ x: Int, _ y: Int) -> Int { city.node(x: x, y: y) }
    let a = DriverID(1), b = DriverID(2)

    private func engine(_ strategy: MatchingStrategy = .greedyOnArrival) -> DispatchEngine {
        var configuration = DispatchConfiguration()
        configuration.strategy = strategy
        return DispatchEngine(planner: PathFinder(graph: Self.city.build()), configuration: configuration)
    }

    private func offers(_ engine: DispatchEngine) -> [(RequestID, DriverID)] {
        engine.takeEvents().compactMap {
            if case .offered(let request, let driver, _, _) = $0.event { (request, driver) } else { nil }
        }
    }

    @Test(
        "Granted while idle: the driver is kept from local requests; handed over, it is offered the neighbour's request at once")
    func grantAndHandOver() throws {
        let engine = engine()
        var desk = ReservationDesk(lifetime: 20)
        try engine.driverOnline(a, at: Self.node(0, 0), now: 0)
        #expect(
            desk.reserve("s2-r1", driver: a, for: "req-900", from: 2, now: 1, engine: engine)
                == .granted(id: "s2-r1", driver: a, expires: 21))
        try engine.submit(RideRequest(id: RequestID(1), rider: 1, origin: Self.node(1, 0), destination: Self.node(4, 0)), now: 2)
        #expect(offers(engine).isEmpty, "the local request waits: its only driver is held")
        let handed = RideRequest(id: RequestID(900), rider: 900, origin: Self.node(0, 2), destination: Self.node(5, 5))
        try desk.handOver("s2-r1", request: handed, named: "req-900", now: 3, engine: engine)
        #expect(offers(engine).map(\.0) == [RequestID(900)], "the reserved driver goes to the request it was reserved for")
        #expect(desk.active.isEmpty && engine.hold(of: a) == nil)
    }

    @Test(
        "Refused: a driver not idle, already held, offline; the same reservation twice. A handover is never refused for its reservation: the asker let the request go"
    )
    func refusals() throws {
        let engine = engine()
        var desk = ReservationDesk(lifetime: 20)
        #expect(
            desk.reserve("x", driver: a, for: "req-9", from: 1, now: 0, engine: engine)
                == .refused(id: "x", reason: "driver 1 is not online"))
        try engine.driverOnline(a, at: Self.node(0, 0), now: 0)
        _ = desk.reserve("x", driver: a, for: "req-9", from: 1, now: 0, engine: engine)
        #expect(
            desk.reserve("x", driver: b, for: "req-9", from: 1, now: 0, engine: engine)
                == .refused(id: "x", reason: "reservation x is already in force"))
        #expect(
            desk.reserve("y", driver: a, for: "req-8", from: 3, now: 0, engine: engine)
                == .refused(id: "y", reason: "driver 1 is already held for x"))
        #expect(desk.expire(now: 19.9, engine: engine).isEmpty)
        #expect(desk.expire(now: 20, engine: engine).map(\.id) == ["x"])
        #expect(engine.hold(of: a) == nil)
        // A handover whose reservation expired on the way: the asker let the request go, so it is
        // taken and matched like any other.
        let late = RideRequest(id: RequestID(9), rider: 9, origin: Self.node(1, 1), destination: Self.node(3, 3))
        try desk.handOver("x", request: late, named: "req-9", now: 21, engine: engine)
        #expect(engine.request(RequestID(9)) == late && engine.state(of: a) == .offered)
        #expect(throws: DispatchRefusal(reason: "request 9 was already submitted")) {
            try desk.handOver("x", request: late, named: "req-9", now: 22, engine: engine)
        }
        try engine.driverOnline(b, at: Self.node(8, 8), now: 23)
        _ = desk.reserve("z", driver: b, for: "req-7", from: 1, now: 23, engine: engine)
        try engine.driverOffline(b, now: 24)
        let gone = RideRequest(id: RequestID(7), rider: 7, origin: Self.node(1, 1), destination: Self.node(2, 2))
        try desk.handOver("z", request: gone, named: "req-7", now: 25, engine: engine)
        #expect(engine.request(RequestID(7)) == gone && desk.active.isEmpty, "its driver went offline: taken all the same")
    }

    @Test(
        "Random asks, handovers, releases, expiries and local rides from two neighbours: no driver is ever granted to two reservations or offered while held",
        arguments: 0..<10)
    func neverInTwoHands(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let engine = engine(.greedy(interval: 10))
        var desk = ReservationDesk(lifetime: 15)
        let drivers = (1...4).map { DriverID($0) }
        for (index, driver) in drivers.enumerated() { try engine.driverOnline(driver, at: Self.node(index * 2, index), now: 0) }
        var holder: [DriverID: String] = [:]
        var (grants, handovers) = (0, 0)
        var nextRequest = 1
        var now = 0.0
        for step in 0..<400 {
            now += Double.random(in: 0...2, using: &random)
            let driver = drivers.randomElement(using: &random)!
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                let id = "s\(step % 2)-\(step)"
                if case .granted(_, let granted, _) = desk.reserve(
                    id, driver: driver, for: "req-\(10_000 + step)", from: step % 2, now: now, engine: engine)
                {
                    #expect(holder[granted] == nil, "\(granted) granted while held for \(holder[granted]!)")
                    holder[granted] = id
                    grants += 1
                }
            case 2:
                if let (held, id) = holder.sorted(by: { $0.key < $1.key }).randomElement(using: &random) {
                    let reserved = try #require(desk.active[id])
                    let request = RideRequest(
                        id: RequestID(Int(reserved.request.dropFirst("req-".count))!), rider: 0,
                        origin: Self.node(Int.random(in: 0...8, using: &random), 4),
                        destination: Self.node(4, 8))
                    try desk.handOver(id, request: request, named: reserved.request, now: now, engine: engine)
                    holder[held] = nil
                    handovers += 1
                }
            case 3:
                if let (held, id) = holder.sorted(by: { $0.key < $1.key }).randomElement(using: &random) {
                    desk.release(id, now: now, engine: engine)
                    holder[held] = nil
                }
            default:
                nextRequest += 1
                try? engine.submit(
                    RideRequest(
                        id: RequestID(nextRequest), rider: nextRequest,
                        origin: Self.node(Int.random(in: 0...8, using: &random), Int.random(in: 0...8, using: &random)),
                        destination: Self.node(8, 0)),
                    now: now)
            }
            for expired in desk.expire(now: now, engine: engine) { holder[expired.driver] = nil }
            engine.advance(to: now)
            for (_, offered) in offers(engine) { #expect(holder[offered] == nil, "seed \(seed): \(offered) offered while held") }
            for driver in drivers { #expect(engine.hold(of: driver) == holder[driver], "seed \(seed) step \(step)") }
        }
        #expect(grants > 20 && handovers > 5, "seed \(seed): \(grants) grants, \(handovers) handovers")
    }
}
