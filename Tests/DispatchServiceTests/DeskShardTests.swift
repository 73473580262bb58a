import City
import RideDispatch
import Testing
import Wire

@testable import DispatchService

/// One shard of two on the fixture's grid, with a corner of each region to work with.
struct ShardFixture {
    var fixture: DeskFixture
    let map: ShardMap
    /// This desk's shard, and the other.
    let own: Int, other: Int
    /// A corner of the grid in this shard's region (0, 0), and one in the other's.
    let far: (x: Int, y: Int)

    init() throws {
        let graph = DeskFixture.city.build()
        let zones = ZoneGrid(graph: graph, cellSize: 1_000)
        let regions = DispatchRegions(
            columns: zones.columns, rows: zones.rows, weights: Array(repeating: 1, count: zones.zoneCount), count: 2)
        let map = ShardMap(zones: zones, regions: regions)
        let own = map.shard(ofNode: DeskFixture.city.node(x: 0, y: 0))
        let corners = [(8, 0), (0, 8), (8, 8)]
        let far = try #require(corners.first { map.shard(ofNode: DeskFixture.city.node(x: $0.0, y: $0.1)) != own })
        self.map = map
        self.own = own
        other = 1 - own
        self.far = (far.0, far.1)
        var settings = DispatchDesk.Settings()
        settings.shard = DeskShard(index: own, map: map)
        fixture = DeskFixture(settings: settings)
        fixture.openSessions()
    }

    var farPosition: LatLon { fixture.at(far.x, far.y) }

    /// d-1, its offer accepted (`accepted`: what the acceptance sent), reaches the pickup at 100 s
    /// and drives on: the LegDone for the drop-off leg, to be sent by the test.
    mutating func dropoffDone(after accepted: [Outgoing]) throws -> Envelope {
        guard case .driveTo(let toPickup)? = bodies(accepted, to: DeskFixture.driversPeer).first else {
            throw ShardFixtureFailure.noLeg("to the pickup")
        }
        let out = fixture.driver(
            .legDone(
                LegDone.with {
                    $0.driverID = "d-1"; $0.leg = toPickup.leg
                }), at: 100)
        guard case .driveTo(let toDropoff)? = bodies(out, to: DeskFixture.driversPeer).first else {
            throw ShardFixtureFailure.noLeg("to the drop-off")
        }
        #expect(fixture.desk.driversHandedOver == 0, "not while it has a rider aboard")
        return Envelope(
            .legDone(
                LegDone.with {
                    $0.driverID = "d-1"; $0.leg = toDropoff.leg
                }), from: fixture.drivers.next())
    }
}

enum ShardFixtureFailure: Error {
    case noLeg(String)
}

/// The error a batch sent to `peer`, if any.
func errorReply(_ out: [Outgoing], to peer: [UInt8]) -> ErrorReply? {
    out.lazy.compactMap { if case .toPeer(peer, .error(let error), _) = $0 { error } else { nil } }.first
}

@Suite("A dispatch shard: what is another's, and a driver handed over")
struct DeskShardTests {
    @Test(
        "A quote, a ride or a driver coming online in another shard's region is refused as NOT_OWNER naming it, and nothing is kept"
    )
    func notOwner() throws {
        var shard = try ShardFixture()
        let quote = shard.fixture.rider(
            .quoteRequest(
                QuoteRequest.with {
                    $0.riderID = "r-1"; $0.pickup = shard.farPosition; $0.dropoff = shard.fixture.at(0, 0)
                }), at: 1)
        let ride = shard.fixture.rider(
            .rideRequest(
                Wire.RideRequest.with {
                    $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = shard.farPosition
                    $0.dropoff = shard.fixture.at(0, 0); $0.product = .uberX
                }), at: 2)
        let online = shard.fixture.driver(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = "d-1"; $0.location = shard.farPosition
                }), at: 3)
        for (what, out, peer) in [
            ("quote", quote, DeskFixture.ridersPeer), ("ride", ride, DeskFixture.ridersPeer),
            ("online", online, DeskFixture.driversPeer),
        ] {
            let error = try #require(errorReply(out, to: peer), "\(what)")
            #expect(error.code == .notOwner && Int(error.shard) == shard.other, "\(what): \(error)")
            #expect(error.reason.contains("dispatch-\(shard.other)"), "\(what): \(error.reason)")
        }
        #expect(shard.fixture.desk.requestCount == 0 && shard.fixture.desk.engine.driverCount == 0)
        #expect(shard.fixture.desk.refused == 0, "another shard's business is not a refusal")
    }

    @Test(
        "A driver whose trip ends idle in the other region is handed over with where it stands; a retry gets the same answer, anything later NOT_OWNER"
    )
    func handover() throws {
        var shard = try ShardFixture()
        var out = shard.fixture.driver(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = "d-1"; $0.location = shard.fixture.at(0, 0)
                }), at: 1)
        #expect(errorReply(out, to: DeskFixture.driversPeer) == nil)
        out = shard.fixture.rider(
            .rideRequest(
                Wire.RideRequest.with {
                    $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = shard.fixture.at(1, 0)
                    $0.dropoff = shard.farPosition; $0.product = .uberX
                }), at: 2)
        guard case .offer(let offer)? = bodies(out, to: DeskFixture.driversPeer).first else {
            Issue.record("no offer: \(out)")
            return
        }
        #expect(offer.offerID.hasPrefix("offer-\(shard.own)."), "a shard's offers are named by it: \(offer.offerID)")
        out = shard.fixture.accept(offer.offerID, by: "d-1", at: 3)
        let done = try shard.dropoffDone(after: out)
        out = shard.fixture.desk.receive(done, from: DeskFixture.driversPeer, at: 1_000)
        let handovers = out.compactMap {
            if case .toPeer(DeskFixture.driversPeer, .ack(let ack), _) = $0, ack.hasHandover { ack.handover } else { nil }
        }
        #expect(
            handovers
                == [
                    DriverHandover.with {
                        $0.driverID = "d-1"; $0.shard = UInt32(shard.other); $0.location = shard.farPosition
                        $0.legsIssued = 2
                    }
                ])
        #expect(published(out).contains(.tripCompleted))
        let driver = try #require(shard.fixture.desk.drivers["d-1"])
        #expect(shard.fixture.desk.engine.state(of: driver) == .offline && shard.fixture.desk.driversHandedOver == 1)
        #expect(shard.fixture.desk.checker.violations.isEmpty)

        // The reply lost, the host asks again with the same message id: the same handover, done once.
        let again = shard.fixture.desk.receive(done, from: DeskFixture.driversPeer, at: 1_001)
        #expect(
            again.compactMap { if case .toPeer(_, .ack(let ack), _) = $0 { ack.handover } else { nil } } == handovers)
        #expect(shard.fixture.desk.driversHandedOver == 1)

        // A message for the driver still on its way here is sent on to the shard that has it now.
        out = shard.fixture.driver(
            .locationUpdate(
                LocationUpdate.with {
                    $0.driverID = "d-1"; $0.location = shard.farPosition
                }), at: 1_002)
        let error = try #require(errorReply(out, to: DeskFixture.driversPeer))
        #expect(error.code == .notOwner && Int(error.shard) == shard.other)
        #expect(shard.fixture.desk.forbiddenCount == 0 && shard.fixture.desk.refused == 0)

        // The new owner takes the driver as its host brings it, and numbers its legs on from the
        // old owner's: the driver's app takes a leg numbered below one it has seen for a stale one.
        var settings = DispatchDesk.Settings()
        settings.shard = DeskShard(index: shard.other, map: shard.map)
        var next = DeskFixture(settings: settings)
        next.openSessions()
        var online = DriverOnline.with {
            $0.driverID = "d-1"; $0.location = shard.farPosition
        }
        online.legsIssued = handovers.first?.legsIssued ?? 0
        #expect(errorReply(next.driver(.driverOnline(online), at: 1_002), to: DeskFixture.driversPeer) == nil)
        let farRide = next.rider(
            .rideRequest(
                Wire.RideRequest.with {
                    $0.requestID = "req-2"; $0.riderID = "r-2"; $0.pickup = shard.farPosition
                    $0.dropoff = shard.farPosition; $0.product = .uberX
                }), at: 1_003)
        guard case .offer(let second)? = bodies(farRide, to: DeskFixture.driversPeer).first else {
            Issue.record("no offer at the new shard: \(farRide)")
            return
        }
        out = next.accept(second.offerID, by: "d-1", at: 1_004)
        guard case .driveTo(let firstThere)? = bodies(out, to: DeskFixture.driversPeer).first else {
            Issue.record("no leg at the new shard")
            return
        }
        #expect(firstThere.leg == 3, "legs 1 and 2 were the old shard's")
    }

    @Test("A driver whose trip ends in its own shard's region stays")
    func staysHome() throws {
        var shard = try ShardFixture()
        let ride = Wire.RideRequest.with {
            $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = shard.fixture.at(1, 0); $0.dropoff = shard.fixture.at(0, 1)
            $0.product = .uberX
        }
        let answered = shard.fixture.acceptedRide(ride)
        let done = try shard.dropoffDone(after: try #require(answered))
        let last = shard.fixture.desk.receive(done, from: DeskFixture.driversPeer, at: 1_000)
        #expect(!last.contains { if case .toPeer(_, .ack(let ack), _) = $0 { ack.hasHandover } else { false } })
        #expect(shard.fixture.desk.driversHandedOver == 0)
        let driver = try #require(shard.fixture.desk.drivers["d-1"])
        #expect(shard.fixture.desk.engine.state(of: driver) == .idle)
    }
}
