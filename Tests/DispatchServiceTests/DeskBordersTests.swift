import City
import RideDispatch
import Testing
import Wire

@testable import DispatchService

/// Shards of the fixture's grid, each a desk with its riders and drivers sessions, and the links
/// between them carried by hand: what one desk sends another (`.toShard`) is given to that one
/// as it would arrive on its ROUTER. `own` is the shard of the grid's corner (0, 0), where the
/// tests' rider asks; `other` the nearest neighbour it asks first.
struct BorderShards {
    let map: ShardMap
    var fixtures: [DeskFixture]
    let own: Int, other: Int
    /// Frames on their way, by the shard they go to.
    var inFlight: [(to: Int, frame: ShardFrame)] = []
    var stamps: [SequenceStamper]
    static let shardPeer: [UInt8] = [9]

    init(regions: Int = 2, reach: Int = 1) {
        let graph = DeskFixture.city.build()
        let zones = ZoneGrid(graph: graph, cellSize: 1_000)
        map = ShardMap(
            zones: zones,
            regions: DispatchRegions(
                columns: zones.columns, rows: zones.rows, weights: Array(repeating: 1, count: zones.zoneCount), count: regions))
        var border = BorderDesk.Settings()
        border.reach = reach
        fixtures = (0..<regions).map { [map] shard in
            var settings = DispatchDesk.Settings()
            settings.shard = DeskShard(index: shard, map: map, border: border)
            var fixture = DeskFixture(settings: settings)
            fixture.openSessions()
            return fixture
        }
        stamps = (0..<regions).map { SequenceStamper(sender: "dispatch-\($0)") }
        let corner = DeskFixture.city.node(x: 0, y: 0)
        own = map.shard(ofNode: corner)
        other = map.regions.regions(near: zones.zone(of: corner), within: reach).first ?? (own + 1) % regions
    }

    /// The desk of the tests' rider, and of the neighbour asked first.
    var home: DeskFixture {
        get { fixtures[own] }
        set { fixtures[own] = newValue }
    }
    var owner: DeskFixture {
        get { fixtures[other] }
        set { fixtures[other] = newValue }
    }

    /// Keeps the frames of `out` for their way; returns the rest.
    mutating func keep(_ out: [Outgoing]) -> [Outgoing] {
        var rest: [Outgoing] = []
        for item in out {
            if case .toShard(let shard, let frame) = item { inFlight.append((shard, frame)) } else { rest.append(item) }
        }
        return rest
    }

    /// Delivers every frame on its way (`losing` says which to lose), and what they send in turn,
    /// until none is left; returns what the deliveries sent to sessions and the bus, by shard.
    mutating func exchange(at time: Double, losing: (ShardFrame) -> Bool = { _ in false }) -> [Int: [Outgoing]] {
        var sent: [Int: [Outgoing]] = [:]
        while !inFlight.isEmpty {
            let (to, frame) = inFlight.removeFirst()
            if losing(frame) { continue }
            let envelope = Envelope(.shardFrame(frame), from: stamps[Int(frame.fromShard)].next())
            sent[to, default: []] += keep(fixtures[to].desk.receive(envelope, from: Self.shardPeer, at: time))
        }
        return sent
    }

    /// Every desk's timers at `time`, their frames kept for their way.
    mutating func tick(at time: Double) {
        for fixture in fixtures { _ = keep(fixture.desk.tick(at: time)) }
    }

    /// A driver `name` online at shard `shard`, at grid point (`x`, `y`).
    mutating func driver(_ name: String, at point: (x: Int, y: Int), shard: Int, time: Double) {
        _ = fixtures[shard].driver(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = name; $0.location = fixtures[shard].at(point.x, point.y)
                }), at: time)
    }

    /// Rider r-1 asks the home shard for req-1 from its corner (0, 0) to (1, 1).
    mutating func request(at time: Double) -> [Outgoing] {
        keep(
            home.rider(
                .rideRequest(
                    Wire.RideRequest.with {
                        $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = home.at(0, 0)
                        $0.dropoff = home.at(1, 1); $0.product = .uberX
                    }), at: time))
    }

    /// The point of shard `shard`'s region nearest the home corner (0, 0), on the grid.
    func nearest(in shard: Int) -> (x: Int, y: Int) {
        var best: (x: Int, y: Int)?
        for x in 0...8 {
            for y in 0...8 where map.shard(ofNode: DeskFixture.city.node(x: x, y: y)) == shard {
                if best.map({ x + y < $0.x + $0.y }) ?? true { best = (x, y) }
            }
        }
        return best!
    }
}

@Suite("Matching across a border: asked, reserved, handed over, in each shard's own order")
struct DeskBordersTests {
    @Test(
        "A request with no driver at home is handed to the neighbour whose idle driver is nearer, offered to that driver at once")
    func handedOver() throws {
        var shards = BorderShards()
        shards.driver("d-2", at: shards.nearest(in: shards.other), shard: shards.other, time: 1)
        let out = shards.request(at: 2)
        #expect(acks(out, to: DeskFixture.ridersPeer).isEmpty && bodies(out, to: DeskFixture.ridersPeer).count == 1)
        let home = shards.home.desk
        let id = try #require(home.requests["req-1"])
        #expect(home.engine.isFrozen(id), "asked for across the border: matched to nobody at home meanwhile")
        #expect(shards.inFlight.count == 1 && shards.inFlight.first?.to == shards.other)

        let sent = shards.exchange(at: 2.5)
        #expect(home.engine.handedOutShard(of: id) == shards.other)
        #expect(published(sent[shards.own] ?? []).contains(.requestHandedOver))
        let atOwner = sent[shards.other] ?? []
        guard case .offer(let offer)? = bodies(atOwner, to: DeskFixture.driversPeer).first else {
            Issue.record("the reserved driver was not offered the request: \(atOwner)")
            return
        }
        #expect(offer.offerID.hasPrefix("offer-\(shards.other)."))
        #expect(published(atOwner).contains(.requestCreated))
        let owned = try #require(shards.owner.desk.requests["req-1"])
        #expect(shards.owner.desk.riderOfRequest[owned] == "r-1")
        // It keeps when its rider asked and the price its pickup zone's owner quoted.
        #expect(shards.owner.desk.engine.wantedFrom(owned) == 2)
        #expect(shards.owner.desk.engine.quotedPriceCents(of: owned) == home.engine.quotedPriceCents(of: id))

        // The rider's host, still sending to the pickup's shard, is sent on to the owner.
        let cancel = shards.home.rider(.cancelRide(CancelRide.with { $0.requestID = "req-1" }), at: 3)
        let error = try #require(errorReply(cancel, to: DeskFixture.ridersPeer))
        #expect(error.code == .notOwner && Int(error.shard) == shards.other)
        let share = shards.home.rider(
            .shareEta(
                ShareEta.with {
                    $0.requestID = "req-1"; $0.riderID = "r-1"; $0.recipientIds = ["r-2"]
                }), at: 3)
        #expect(errorReply(share, to: DeskFixture.ridersPeer)?.code == .notOwner, "so are the rider's features")

        // At the owner, the driver accepts: the rider hears of it on its host's session there.
        let accepted = shards.owner.accept(offer.offerID, by: "d-2", at: 4)
        guard case .tripUpdate(let update)? = bodies(accepted, to: DeskFixture.ridersPeer).first else {
            Issue.record("the rider heard nothing at the owner: \(accepted)")
            return
        }
        #expect(update.requestID == "req-1" && update.driverID == "d-2")
        let counts = (home.border?.counts, shards.owner.desk.border?.counts)
        #expect(counts.0?.asked == 1 && counts.0?.granted == 1 && counts.0?.handedOut == 1)
        #expect(counts.1?.reserveGranted == 1 && counts.1?.handedIn == 1)
        #expect(home.checker.violations.isEmpty && shards.owner.desk.checker.violations.isEmpty)
        #expect(home.unexpectedRefusals == 0 && shards.owner.desk.unexpectedRefusals == 0)
    }

    @Test("The nearest neighbour refuses: the next one in reach is asked, and its driver gets the request")
    func nextNeighbour() throws {
        var shards = BorderShards(regions: 3, reach: 2)
        let third = try #require((0..<3).first { $0 != shards.own && $0 != shards.other })
        shards.driver("d-3", at: shards.nearest(in: third), shard: third, time: 1)
        _ = shards.request(at: 2)
        #expect(shards.inFlight.map(\.to) == [shards.other], "the nearest neighbour first, alone")
        let sent = shards.exchange(at: 2.5)
        let home = shards.home.desk
        let id = try #require(home.requests["req-1"])
        #expect(home.engine.handedOutShard(of: id) == third)
        #expect(home.border?.counts.asked == 2 && home.border?.counts.refused == 1 && home.border?.counts.granted == 1)
        #expect(
            bodies(sent[third] ?? [], to: DeskFixture.driversPeer).contains { if case .offer = $0 { true } else { false } },
            "the third shard's driver is offered the request")
        #expect(home.border?.untried.isEmpty == true)
    }

    @Test("A shard restored from its snapshot with an ask in flight carries on: the grant hands the request over")
    func restoredMidAsk() throws {
        var shards = BorderShards()
        shards.driver("d-2", at: shards.nearest(in: shards.other), shard: shards.other, time: 1)
        _ = shards.request(at: 2)
        let bytes = try CompactEncoder.encode(shards.home.desk.state)
        let restored = DeskFixture(settings: shards.home.desk.settings)
        restored.desk.restore(try CompactDecoder.decode(DispatchDesk.State.self, from: bytes[...]))
        #expect(restored.desk.border == shards.home.desk.border)
        shards.home = restored
        _ = shards.exchange(at: 2.5)
        let id = try #require(restored.desk.requests["req-1"])
        #expect(restored.desk.engine.handedOutShard(of: id) == shards.other)
        #expect(shards.owner.desk.border?.counts.handedIn == 1)
    }

    @Test("A driver at home within the margin of the pickup: nobody is asked")
    func staysHome() throws {
        var shards = BorderShards()
        _ = shards.home.driver(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = "d-1"; $0.location = shards.home.at(0, 1)
                }), at: 1)
        let out = shards.request(at: 2)
        #expect(shards.inFlight.isEmpty)
        #expect(bodies(out, to: DeskFixture.driversPeer).contains { if case .offer = $0 { true } else { false } })
    }

    @Test("The neighbour has no idle driver: refused, and the request is matched at home")
    func refused() throws {
        var shards = BorderShards()
        _ = shards.request(at: 2)
        let sent = shards.exchange(at: 2.5)
        let home = shards.home.desk
        let id = try #require(home.requests["req-1"])
        #expect(!home.engine.isFrozen(id) && home.engine.handedOutShard(of: id) == nil)
        #expect(home.border?.counts.refused == 1)
        #expect(bodies(sent[shards.other] ?? [], to: DeskFixture.driversPeer).isEmpty)
        // A driver of its own comes online: the request is offered to it.
        let online = shards.home.driver(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = "d-1"; $0.location = shards.home.at(0, 0)
                }), at: 3)
        let tick = shards.home.desk.tick(at: 20)
        #expect(
            (bodies(online, to: DeskFixture.driversPeer) + bodies(tick, to: DeskFixture.driversPeer)).contains {
                if case .offer = $0 { true } else { false }
            })
    }

    @Test("Frames lost on the way are sent again until acknowledged, and taken once: one handover, one request at the owner")
    func lostFrames() throws {
        var shards = BorderShards()
        shards.driver("d-2", at: shards.nearest(in: shards.other), shard: shards.other, time: 1)
        _ = shards.request(at: 2)
        // Every first copy of a numbered frame is lost, and every acknowledgement the first time round.
        var seen: Set<String> = []
        var time = 2.0
        for _ in 0..<10 {
            time += 1
            _ = shards.exchange(at: time) { frame in
                let key = "\(frame.fromShard)-\(frame.sequence)-\(frame.acknowledged)"
                return seen.insert(key).inserted
            }
            shards.tick(at: time)
        }
        _ = shards.exchange(at: time + 1)
        let home = shards.home.desk
        let id = try #require(home.requests["req-1"])
        #expect(home.engine.handedOutShard(of: id) == shards.other)
        #expect(home.border?.counts.handedOut == 1 && shards.owner.desk.border?.counts.handedIn == 1)
        #expect(shards.owner.desk.engine.unfinishedRequests.count == 1)
        #expect(home.border?.outgoing.values.allSatisfy { $0.unacknowledged.isEmpty } == true)
        #expect(home.checker.violations.isEmpty && shards.owner.desk.checker.violations.isEmpty)
    }

    @Test("A rider who cancels while the neighbour is asked: the ask is released and the driver freed there")
    func cancelledWhileAsked() throws {
        var shards = BorderShards()
        shards.driver("d-2", at: shards.nearest(in: shards.other), shard: shards.other, time: 1)
        _ = shards.request(at: 2)
        // The reserve reaches the owner (and is granted) but the answer is lost; the rider cancels.
        let ownerShard = UInt32(shards.other)
        _ = shards.exchange(at: 2.5) { $0.fromShard == ownerShard }
        let driver = try #require(shards.owner.desk.drivers["d-2"])
        #expect(shards.owner.desk.engine.hold(of: driver) != nil)
        // Reserved for, not handed over: the owner knows no request of that name, so nobody can act
        // for it there (a name without its rider once let a forged RateTrip through).
        #expect(shards.owner.desk.requests["req-1"] == nil)
        let rating = shards.owner.rider(
            .rateTrip(
                RateTrip.with {
                    $0.tripID = "trip-req-1"; $0.stars = 5
                }), at: 2.6)
        #expect(errorReply(rating, to: DeskFixture.ridersPeer)?.code == .unknownRequest)
        let cancel = shards.keep(
            shards.home.rider(.cancelRide(CancelRide.with { $0.requestID = "req-1" }), at: 3))
        #expect(errorReply(cancel, to: DeskFixture.ridersPeer) == nil)
        _ = shards.exchange(at: 3.5)
        #expect(shards.owner.desk.engine.hold(of: driver) == nil, "the release freed the driver")
        _ = shards.keep(shards.owner.desk.tick(at: 10))
        _ = shards.exchange(at: 10)
        let home = shards.home.desk
        let id = try #require(home.requests["req-1"])
        #expect(home.engine.handedOutShard(of: id) == nil && home.engine.outcome(of: id)?.kind == "cancelled")
        #expect(shards.owner.desk.engine.unfinishedRequests.isEmpty)
    }

    @Test("A frame whose connection's key is another process's is refused and counted")
    func forged() throws {
        var shards = BorderShards()
        let frame = ShardFrame.with {
            $0.fromShard = UInt32(shards.own); $0.sequence = 1
            $0.message = BorderMessage.release(reservation: "s0-1").wire
        }
        let out = shards.owner.desk.receive(
            Envelope(.shardFrame(frame), from: shards.stamps[0].next()), from: BorderShards.shardPeer, authenticated: "riders-1",
            at: 1)
        #expect(out.isEmpty && shards.owner.desk.forbiddenCount == 1)
        #expect(shards.owner.desk.border?.incoming.isEmpty == true)
    }
}
