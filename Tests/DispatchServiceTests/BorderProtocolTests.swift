import City
import RideDispatch
import TestSupport
import Testing

@testable import DispatchService

/// Matching across a border end to end, without sockets: the asking shard's `BorderAsks`, the
/// owner's `ReservationDesk` and real engine, over `ShardLink`s through a network that loses a
/// third of what it carries, repeats a fifth and delays up to 3 s.
@Suite("Matching across a border: a request is handed over at most once, never while it is matched or cancelled at home")
struct BorderProtocolTests {
    enum ToOwner: Sendable, Equatable, Codable {
        case reserve(id: String, driver: DriverID, request: RequestID)
        case release(id: String)
        case handOver(id: String, request: RideRequest)
    }

    enum AtHome: Equatable {
        case waiting, frozen, handedOver, matchedHome, cancelled
    }

    struct Network<Payload: Sendable & Equatable & Codable> {
        var sender = ShardLink<Payload>.Sender(resendAfter: 1.5)
        var receiver = ShardLink<Payload>.Receiver(holding: 16)
        var inFlight: [(at: Double, order: Int, message: ShardLink<Payload>.Numbered?, acknowledgement: UInt64?)] = []
        var order = 0

        mutating func carry(
            _ message: ShardLink<Payload>.Numbered?, _ acknowledgement: UInt64?, now: Double, random: inout SplitMix
        ) {
            guard Double.random(in: 0..<1, using: &random) >= 1.0 / 3 else { return }
            for _ in 0..<(Double.random(in: 0..<1, using: &random) < 0.2 ? 2 : 1) {
                order += 1
                inFlight.append((now + Double.random(in: 0...3, using: &random), order, message, acknowledgement))
            }
        }

        mutating func send(_ payload: Payload, now: Double, random: inout SplitMix) {
            carry(sender.send(payload, now: now), nil, now: now, random: &random)
        }

        /// What arrives by `now`, delivered in order and once; acknowledgements go back and resends out.
        mutating func deliver(now: Double, random: inout SplitMix) -> [Payload] {
            for message in sender.due(now: now) { carry(message, nil, now: now, random: &random) }
            inFlight.sort { ($0.at, $0.order) < ($1.at, $1.order) }
            var delivered: [Payload] = []
            while let next = inFlight.first, next.at <= now {
                inFlight.removeFirst()
                if let message = next.message {
                    let (ready, acknowledgement) = receiver.receive(message)
                    delivered += ready
                    carry(nil, acknowledgement, now: now, random: &random)
                }
                if let acknowledgement = next.acknowledgement { sender.acknowledged(upTo: acknowledgement) }
            }
            return delivered
        }

        var idle: Bool { sender.unacknowledged.isEmpty }
    }

    static let city = GridCity(width: 2_000, height: 2_000, blockLength: 250, speedKmh: 36)

    @Test("Random asks, cancellations, home matches and expiries on both sides", arguments: 0..<12)
    func exchange(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        var configuration = DispatchConfiguration()
        configuration.strategy = .greedy(interval: 10)
        let owner = DispatchEngine(planner: PathFinder(graph: Self.city.build()), configuration: configuration)
        // The asking shard's engine: its requests freeze, thaw, leave or are cancelled as the protocol says.
        var askingConfiguration = configuration
        askingConfiguration.maxMatchWaitSeconds = 1_000_000
        let asker = DispatchEngine(planner: PathFinder(graph: Self.city.build()), configuration: askingConfiguration)
        let askerChecks = InvariantChecker(poolCapacity: 2)
        let ownerChecks = InvariantChecker(poolCapacity: 2)
        let drivers = (1...5).map { DriverID($0) }
        for (index, driver) in drivers.enumerated() {
            try owner.driverOnline(driver, at: Self.city.node(x: index, y: 8 - index), now: 0)
        }
        var desk = ReservationDesk(lifetime: 8)
        var asks = BorderAsks(shard: 0, patience: 5)
        var toOwner = Network<ToOwner>()
        var toAsker = Network<ReservationDesk.Answer>()
        var home: [RequestID: AtHome] = [:]
        var handedOver: [RequestID: Int] = [:]
        var requests: [RequestID: RideRequest] = [:]

        func carryOut(_ actions: [BorderAsks.Action], now: Double) {
            for action in actions {
                switch action {
                case .reserve(let ask):
                    guard let driver = ask.driver else {
                        Issue.record("seed \(seed): an ask for a named driver came back with none")
                        continue
                    }
                    toOwner.send(
                        .reserve(id: ask.reservation, driver: driver, request: ask.request), now: now, random: &random)
                case .handOver(let request, _, let reservation):
                    #expect(
                        home[request] == .frozen,
                        "seed \(seed): \(request) handed over while \(String(describing: home[request]))")
                    home[request] = .handedOver
                    handedOver[request, default: 0] += 1
                    #expect(throws: Never.self) { try asker.handOut(request, to: 1, now: now) }
                    toOwner.send(.handOver(id: reservation, request: requests[request]!), now: now, random: &random)
                case .release(let reservation, _):
                    toOwner.send(.release(id: reservation), now: now, random: &random)
                case .matchAtHome(let request):
                    if home[request] == .frozen {
                        home[request] = .waiting
                        #expect(throws: Never.self) { try asker.thaw(request, now: now) }
                    }
                }
            }
        }

        /// One tick of both shards at `now`: asks expire, the links deliver, the owner acts on what
        /// arrives and the asker on the answers, reservations expire, both engines advance.
        func exchange(now: Double) throws {
            carryOut(asks.expire(now: now), now: now)
            for message in toOwner.deliver(now: now, random: &random) {
                switch message {
                case .reserve(let id, let driver, let request):
                    toAsker.send(
                        desk.reserve(id, driver: driver, for: "\(request)", from: 0, now: now, engine: owner), now: now,
                        random: &random)
                case .release(let id):
                    desk.release(id, now: now, engine: owner)
                case .handOver(let id, let request):
                    try desk.handOver(id, request: request, named: "\(request.id)", now: now, engine: owner)
                }
            }
            for answer in toAsker.deliver(now: now, random: &random) { carryOut(asks.answered(answer), now: now) }
            _ = desk.expire(now: now, engine: owner)
            owner.advance(to: now)
            asker.advance(to: now)
            askerChecks.record(asker.takeEvents())
            ownerChecks.record(owner.takeEvents())
        }

        var now = 0.0
        for step in 0..<1_200 {
            now += 0.25
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                let id = RequestID(1_000 + step)
                requests[id] = RideRequest(
                    id: id, rider: step, origin: Self.city.node(x: Int.random(in: 0...8, using: &random), y: 4),
                    destination: Self.city.node(x: 8, y: 0))
                home[id] = .waiting
                try asker.submit(requests[id]!, now: now)
            case 1, 2:
                if let id = home.filter({ $0.value == .waiting }).keys.sorted().first {
                    home[id] = .frozen
                    try asker.freeze(id, now: now)
                    carryOut(asks.ask(for: id, driver: drivers.randomElement(using: &random)!, owner: 1, now: now), now: now)
                }
            case 3:
                if let (id, state) = home.filter({ $0.value == .waiting || $0.value == .frozen }).sorted(by: { $0.key < $1.key })
                    .randomElement(using: &random)
                {
                    if state == .frozen { carryOut(asks.cancelled(id), now: now) }
                    home[id] = .cancelled
                    try asker.cancel(id, by: .rider, reason: "changed my mind", now: now)
                }
            case 4:
                // Matched at home by one of the asking shard's own drivers: only a request not frozen.
                if let id = home.filter({ $0.value == .waiting }).keys.sorted().last {
                    #expect(!asks.isFrozen(id))
                    home[id] = .matchedHome
                }
            default:
                break
            }
            try exchange(now: now)
            for driver in drivers {
                let holder = desk.active.values.first { $0.driver == driver }?.id
                #expect(
                    owner.hold(of: driver) == holder,
                    "seed \(seed): \(driver) held for \(String(describing: owner.hold(of: driver)))")
            }
        }
        // The network drains; every ask and reservation comes to an end.
        while !toOwner.idle || !toAsker.idle || !toOwner.inFlight.isEmpty || !toAsker.inFlight.isEmpty {
            now += 0.25
            try exchange(now: now)
            if now > 3_000 { break }
        }
        #expect(asks.asks.isEmpty && desk.active.isEmpty, "seed \(seed): asks or reservations left")
        #expect(drivers.allSatisfy { owner.hold(of: $0) == nil }, "seed \(seed): a hold outlived its reservation")
        #expect(handedOver.values.allSatisfy { $0 == 1 }, "seed \(seed): a request handed over twice")
        for (request, _) in handedOver { #expect(owner.request(request) != nil, "seed \(seed): \(request) lost on its way") }
        let others = home.filter { $0.value != .handedOver }.keys
        for request in others { #expect(owner.request(request) == nil, "seed \(seed): \(request) is at both shards") }
        for (request, _) in handedOver {
            #expect(
                asker.progress(of: request) == nil && asker.outcome(of: request) == nil, "seed \(seed): \(request) still here")
        }
        for (request, state) in home where state == .cancelled {
            #expect(asker.outcome(of: request)?.kind == "cancelled", "seed \(seed)")
        }
        #expect(
            askerChecks.violations.isEmpty && ownerChecks.violations.isEmpty,
            "seed \(seed): \(askerChecks.violations + ownerChecks.violations)")
        #expect(handedOver.count >= 2, "seed \(seed): only \(handedOver.count) handovers")
    }
}
