import City
import Foundation
import RideDispatch
import Testing
import Wire

@testable import DispatchService

/// A desk on a 9 × 9 grid (250 m blocks, 36 km/h), with a riders session and a drivers session.
struct DeskFixture {
    static let city = GridCity(width: 2_000, height: 2_000, blockLength: 250, speedKmh: 36)
    let graph = city.build()
    let desk: DispatchDesk
    var riders = SequenceStamper(sender: "riders-1")
    var drivers = SequenceStamper(sender: "drivers-1")
    static let ridersPeer: [UInt8] = [1], driversPeer: [UInt8] = [2]

    init(settings: DispatchDesk.Settings = DispatchDesk.Settings()) {
        var configuration = DispatchConfiguration()
        configuration.offerTimeoutSeconds = 30
        desk = DispatchDesk(
            engine: DispatchEngine(planner: PathFinder(graph: graph), configuration: configuration), settings: settings)
    }

    func at(_ x: Int, _ y: Int) -> LatLon {
        let point = graph.positions[Self.city.node(x: x, y: y)]
        return LatLon.with {
            $0.lat = point.lat
            $0.lon = point.lon
        }
    }

    mutating func rider(_ body: Envelope.OneOf_Body, at time: Double) -> [Outgoing] {
        desk.receive(Envelope(body, from: riders.next()), from: Self.ridersPeer, at: time)
    }

    mutating func driver(_ body: Envelope.OneOf_Body, at time: Double) -> [Outgoing] {
        desk.receive(Envelope(body, from: drivers.next()), from: Self.driversPeer, at: time)
    }

    /// A Hello from session `id` as process `id` of `role`, with the token that session always draws.
    static func hello(_ role: Role, _ id: String, process: String? = nil) -> Envelope.OneOf_Body {
        .hello(
            Hello.with {
                $0.role = role
                $0.sessionID = id
                $0.process = process ?? id
                $0.sessionToken = Data(id.utf8.map { $0 ^ 0x5A })
            })
    }

    /// Rider r-1's request req-1 from (1, 1) to (5, 5), stamped by the riders' session: sent
    /// once, it can be sent again as its own retry.
    mutating func rideRequestFromR1() -> Envelope {
        Envelope(
            .rideRequest(
                Wire.RideRequest.with {
                    $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = at(1, 1); $0.dropoff = at(5, 5)
                }), from: riders.next())
    }

    mutating func openSessions() {
        _ = rider(
            DeskFixture.hello(.riders, "riders-1"), at: 0)
        _ = driver(
            DeskFixture.hello(.drivers, "drivers-1"), at: 0)
    }

    /// Driver `driver` accepts offer `offer` at `time`.
    mutating func accept(_ offer: String, by driver: String, at time: Double) -> [Outgoing] {
        self.driver(
            .acceptOffer(
                AcceptOffer.with {
                    $0.offerID = offer; $0.driverID = driver
                }), at: time)
    }

    /// d-1 says its leg `leg` is done, at `time`.
    mutating func legDone(_ leg: UInt32, at time: Double) -> [Outgoing] {
        driver(
            .legDone(
                LegDone.with {
                    $0.driverID = "d-1"; $0.leg = leg
                }), at: time)
    }

    /// Both sessions open, and d-1 on its way to r-1's pickup (req-1, from (1, 0) to (5, 5)) since
    /// 3 s; false (recorded as an issue) if it never got the offer.
    mutating func driverOnItsWay() -> Bool {
        openSessions()
        let ride = Wire.RideRequest.with {
            $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = at(1, 0); $0.dropoff = at(5, 5)
        }
        return acceptedRide(ride) != nil
    }

    /// Driver d-1 comes online at (0, 0) at 1 s, `ride` is asked for at 2 s, and d-1 accepts its
    /// offer at 3 s: what the acceptance sent, or nil (recorded as an issue) if no offer came.
    mutating func acceptedRide(_ ride: Wire.RideRequest) -> [Outgoing]? {
        _ = driver(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = "d-1"; $0.location = at(0, 0)
                }), at: 1)
        guard case .offer(let offer)? = bodies(rider(.rideRequest(ride), at: 2), to: Self.driversPeer).first else {
            Issue.record("no offer for \(ride.requestID)")
            return nil
        }
        return driver(
            .acceptOffer(
                AcceptOffer.with {
                    $0.offerID = offer.offerID; $0.driverID = "d-1"
                }), at: 3)
    }
}

/// Bodies sent to a peer (acknowledgements left out), and events published, from a batch of
/// outgoing messages.
func bodies(_ out: [Outgoing], to peer: [UInt8]) -> [Envelope.OneOf_Body] {
    out.compactMap { if case .toPeer(peer, let body, _) = $0, !isAck(body) { body } else { nil } }
}

func isAck(_ body: Envelope.OneOf_Body) -> Bool {
    if case .ack = body { true } else { false }
}

/// Acknowledgements sent to a peer, by the message id they answer.
func acks(_ out: [Outgoing], to peer: [UInt8]) -> [String] {
    out.compactMap { if case .toPeer(peer, let body, let inReplyTo) = $0, isAck(body) { inReplyTo } else { nil } }
}

func published(_ out: [Outgoing]) -> [DispatchEventKind] {
    out.compactMap { if case .publish(_, let event) = $0 { event.kind } else { nil } }
}

@Suite("Dispatch desk: the engine behind the wire protocol")
struct DeskTests {
    @Test("Sessions: Hello is answered with Welcome and published; anything else first, or a wrong version, is refused")
    func sessions() {
        var fixture = DeskFixture()
        let early = fixture.rider(.heartbeat(Heartbeat()), at: 0)
        guard case .error(let refusal)? = bodies(early, to: DeskFixture.ridersPeer).first else {
            Issue.record("no error for a message before Hello")
            return
        }
        #expect(refusal.code == .unknownSession)
        let hello = fixture.rider(
            DeskFixture.hello(.riders, "riders-1"), at: 1)
        guard case .welcome(let welcome)? = bodies(hello, to: DeskFixture.ridersPeer).first else {
            Issue.record("no Welcome")
            return
        }
        #expect(welcome.sessionID == "riders-1" && welcome.sessionTimeoutMs == 5_000 && welcome.simTimeMs == 1_000)
        #expect(published(hello) == [.sessionOpened])
        var old = Envelope(.heartbeat(Heartbeat()), from: fixture.riders.next())
        old.protocolVersion = 2
        guard
            case .error(let version)? = bodies(
                fixture.desk.receive(old, from: DeskFixture.ridersPeer, at: 2), to: DeskFixture.ridersPeer
            ).first
        else {
            Issue.record("no error for version 2")
            return
        }
        #expect(version.code == .unsupportedVersion)
        #expect(fixture.desk.refused == 2)
    }

    @Test("A whole ride over the protocol: quote, request, offer, accept, legs, trip updates, fare, bus events in order")
    func wholeRide() throws {
        var fixture = DeskFixture()
        fixture.openSessions()
        var bus: [DispatchEventKind] = []
        var states: [Wire.DispatchEvent] = []
        var out = fixture.driver(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = "d-1"; $0.location = fixture.at(0, 0)
                }), at: 1)
        bus += published(out)
        states += out.compactMap { if case .publish(_, let event) = $0, event.kind == .driverStateChanged { event } else { nil } }
        out = fixture.rider(
            .quoteRequest(
                QuoteRequest.with {
                    $0.riderID = "r-1"; $0.pickup = fixture.at(2, 0); $0.dropoff = fixture.at(6, 0); $0.product = .uberX
                }), at: 2)
        guard case .quote(let quote)? = bodies(out, to: DeskFixture.ridersPeer).first else { Issue.record("no quote"); return }
        #expect(quote.pickupEtaS == 50 && quote.distanceM == 1_000 && quote.tripDurationS == 100 && quote.priceCents > 0)

        out = fixture.rider(
            .rideRequest(
                Wire.RideRequest.with {
                    $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = fixture.at(2, 0); $0.dropoff = fixture.at(6, 0);
                    $0.product = .uberX
                }), at: 3)
        bus += published(out)
        states += out.compactMap { if case .publish(_, let event) = $0, event.kind == .driverStateChanged { event } else { nil } }
        #expect(
            bodies(out, to: DeskFixture.ridersPeer).contains {
                if case .requestReceived(let r) = $0 { r.requestID == "req-1" } else { false }
            })
        guard case .offer(let offer)? = bodies(out, to: DeskFixture.driversPeer).first else { Issue.record("no offer"); return }
        #expect(offer.requestID == "req-1" && offer.driverID == "d-1" && offer.pickupEtaS == 50 && offer.expiresAtMs == 33_000)

        out = fixture.driver(
            .acceptOffer(
                AcceptOffer.with {
                    $0.offerID = offer.offerID; $0.driverID = "d-1"
                }), at: 4)
        bus += published(out)
        states += out.compactMap { if case .publish(_, let event) = $0, event.kind == .driverStateChanged { event } else { nil } }
        #expect(
            acks(out, to: DeskFixture.driversPeer).count == 1,
            "an answer to an offer is acknowledged, so a lost one can be sent again")
        guard case .tripUpdate(let assigned)? = bodies(out, to: DeskFixture.ridersPeer).first,
            case .driveTo(let toPickup)? = bodies(out, to: DeskFixture.driversPeer).first
        else { Issue.record("no assignment"); return }
        #expect(assigned.state == .driverAssigned && assigned.driverID == "d-1")
        #expect(toPickup.leg == 1 && toPickup.stop == .pickup && toPickup.routeNodes.count == 3 && toPickup.arriveAtMs == 54_000)
        let legs = out.compactMap { if case .publish(_, let event) = $0, event.kind == .legStarted { event } else { nil } }
        #expect(
            legs.count == 1 && legs[0].driverID == "d-1" && legs[0].requestID == "req-1"
                && legs[0].routeNodes == toPickup.routeNodes && legs[0].departAtMs == toPickup.departAtMs
                && legs[0].arriveAtMs == toPickup.arriveAtMs,
            "the bus hears the leg as the driver is told it (the web monitor moves the car along it)")

        out = fixture.legDone(1, at: 54)
        bus += published(out)
        states += out.compactMap { if case .publish(_, let event) = $0, event.kind == .driverStateChanged { event } else { nil } }
        guard case .tripUpdate(let onTrip)? = bodies(out, to: DeskFixture.ridersPeer).last,
            case .driveTo(let toDropoff)? = bodies(out, to: DeskFixture.driversPeer).first
        else { Issue.record("no pickup"); return }
        #expect(onTrip.state == .onTrip && toDropoff.leg == 2 && toDropoff.stop == .dropoff && toDropoff.arriveAtMs == 154_000)

        out = fixture.legDone(2, at: 154)
        bus += published(out)
        states += out.compactMap { if case .publish(_, let event) = $0, event.kind == .driverStateChanged { event } else { nil } }
        guard case .tripUpdate(let done)? = bodies(out, to: DeskFixture.ridersPeer).first else {
            Issue.record("no completion"); return
        }
        #expect(done.state == .completed && done.fareCents == quote.priceCents)
        #expect(
            bus.filter { $0 != .driverStateChanged && $0 != .legStarted } == [
                .requestCreated, .offerSent, .offerAccepted, .driverArrived, .tripStarted, .tripCompleted,
            ])
        #expect(bus.filter { $0 == .legStarted }.count == 2, "to the pickup, to the dropoff")
        #expect(bus.filter { $0 == .driverStateChanged }.count == 5, "idle, offered, en route, on trip, idle")
        // Where each change happened, from the legs (the driver sent no location reports).
        #expect(states.map(\.driverState) == [.idle, .offered, .enRoute, .onTrip, .idle])
        #expect(states.map(\.location) == [(0, 0), (0, 0), (0, 0), (2, 0), (6, 0)].map { fixture.at($0.0, $0.1) })
    }

    @Test("A session back on a new socket gets each rider's last trip update and each driver's last leg again")
    func resendAfterReconnect() {
        var fixture = DeskFixture()
        fixture.openSessions()
        let ride = Wire.RideRequest.with {
            $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = fixture.at(2, 0); $0.dropoff = fixture.at(6, 0)
            $0.product = .uberX
        }
        guard fixture.acceptedRide(ride) != nil else { return }
        // Both sessions lose their sockets (Lazy Pirate) and say Hello again from new ones.
        let newRiders: [UInt8] = [11], newDrivers: [UInt8] = [12]
        let riders = fixture.desk.receive(
            Envelope(
                DeskFixture.hello(.riders, "riders-1"), from: fixture.riders.next()),
            from: newRiders, at: 4)
        let drivers = fixture.desk.receive(
            Envelope(
                DeskFixture.hello(.drivers, "drivers-1"), from: fixture.drivers.next()),
            from: newDrivers, at: 4)
        let toRiders = bodies(riders, to: newRiders), toDrivers = bodies(drivers, to: newDrivers)
        #expect(toRiders.count == 2 && toDrivers.count == 2, "Welcome, then what was last sent")
        guard case .tripUpdate(let update)? = toRiders.last, case .driveTo(let leg)? = toDrivers.last else {
            Issue.record("nothing sent again: \(toRiders) \(toDrivers)")
            return
        }
        #expect(update.requestID == "req-1" && update.state == .driverAssigned)
        #expect(leg.driverID == "d-1" && leg.leg == 1 && leg.stop == .pickup)
    }

    @Test(
        "A leg not reported done well past its arrival is sent again (the DriveTo may have been lost); a rider asking again is told where the ride stands"
    )
    func lostPushesHeal() {
        var settings = DispatchDesk.Settings()
        settings.sessionTimeoutMs = 600_000
        var fixture = DeskFixture(settings: settings)
        fixture.openSessions()
        let ride = Wire.RideRequest.with {
            $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = fixture.at(2, 0); $0.dropoff = fixture.at(6, 0)
            $0.product = .uberX
        }
        guard let accepted = fixture.acceptedRide(ride) else { return }
        guard case .driveTo(let leg)? = bodies(accepted, to: DeskFixture.driversPeer).first else {
            Issue.record("no leg"); return
        }
        let arrival = Double(leg.arriveAtMs) / 1000
        #expect(bodies(fixture.desk.tick(at: arrival + 30), to: DeskFixture.driversPeer).isEmpty, "within the grace")
        let resent = bodies(fixture.desk.tick(at: arrival + 61), to: DeskFixture.driversPeer)
        #expect(resent == [.driveTo(leg)])
        #expect(bodies(fixture.desk.tick(at: arrival + 80), to: DeskFixture.driversPeer).isEmpty, "once per grace period")

        // The rider heard nothing since, and asks again: received, and the last trip update.
        let again = bodies(fixture.rider(.rideRequest(ride), at: arrival + 90), to: DeskFixture.ridersPeer)
        #expect(again.count == 2)
        guard case .tripUpdate(let update)? = again.last else { Issue.record("no trip update: \(again)"); return }
        #expect(update.state == .driverAssigned && update.requestID == "req-1")

        _ = fixture.legDone(leg.leg, at: arrival + 100)
        let later = bodies(fixture.desk.tick(at: arrival + 400), to: DeskFixture.driversPeer)
        #expect(!later.contains(.driveTo(leg)), "a leg reported done is not sent again")
    }

    @Test("A retried request is answered again, never done twice")
    func idempotent() {
        var fixture = DeskFixture()
        fixture.openSessions()
        let ride = fixture.rideRequestFromR1()
        let first = fixture.desk.receive(ride, from: DeskFixture.ridersPeer, at: 1)
        let again = fixture.desk.receive(ride, from: DeskFixture.ridersPeer, at: 2)
        #expect(bodies(again, to: DeskFixture.ridersPeer).count == 1 && bodies(first, to: DeskFixture.ridersPeer).count == 1)
        #expect(published(again).isEmpty, "nothing happened the second time")
        // The same ride under a new message id (a client that lost its first id) is acknowledged only.
        let renewed = fixture.rider(.rideRequest(ride.rideRequest), at: 3)
        #expect(published(renewed).isEmpty)
        #expect(fixture.desk.engine.unfinishedRequests.count == 1)
    }

    /// Found profiling metro (session 36): every location report was remembered for a retry that
    /// never comes, and two thirds of what dispatch hears are reports — they pushed the replies
    /// that retries of real requests need out of the memory.
    @Test("A fleet's location reports and heartbeats are not remembered: a ride request's reply outlives a flood of them")
    func reportsAreNotRemembered() {
        var settings = DispatchDesk.Settings()
        settings.rememberedReplies = 4
        var fixture = DeskFixture(settings: settings)
        fixture.openSessions()
        _ = fixture.driver(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = "d-1"; $0.location = fixture.at(0, 0)
                }), at: 1)
        let ride = fixture.rideRequestFromR1()
        let first = fixture.desk.receive(ride, from: DeskFixture.ridersPeer, at: 2)
        let remembered = fixture.desk.memory.count
        for second in 0..<20 {
            let report = fixture.driver(
                .locationUpdate(
                    LocationUpdate.with {
                        $0.driverID = "d-1"; $0.location = fixture.at(0, 0)
                    }), at: 3 + Double(second) / 10)
            #expect(report.isEmpty, "a report is answered by nothing")
            _ = fixture.driver(.heartbeat(Heartbeat()), at: 3 + Double(second) / 10)
        }
        #expect(fixture.desk.memory.count == remembered, "nothing remembered for reports and heartbeats")
        #expect(fixture.desk.memory.replies(to: "riders-1/" + ride.messageID) != nil)
        let again = fixture.desk.receive(ride, from: DeskFixture.ridersPeer, at: 6)
        #expect(bodies(again, to: DeskFixture.ridersPeer) == bodies(first, to: DeskFixture.ridersPeer))
        #expect(published(again).isEmpty, "answered from memory: nothing happened the second time")
    }

    /// Found while writing the Lazy Pirate client: a retry over a new socket was answered to the
    /// old socket's identity, which no longer exists.
    @Test("A retry over a new socket, after Hello again, is answered to the new socket")
    func retryAfterReconnect() {
        var fixture = DeskFixture()
        fixture.openSessions()
        let ride = fixture.rideRequestFromR1()
        _ = fixture.desk.receive(ride, from: DeskFixture.ridersPeer, at: 1)
        let newPeer: [UInt8] = [9]
        _ = fixture.desk.receive(
            Envelope(
                DeskFixture.hello(.riders, "riders-1"), from: fixture.riders.next()),
            from: newPeer, at: 2)
        let again = fixture.desk.receive(ride, from: newPeer, at: 3)
        #expect(bodies(again, to: newPeer).count == 1 && bodies(again, to: DeskFixture.ridersPeer).isEmpty)
        #expect(fixture.desk.engine.unfinishedRequests.count == 1)
    }

    /// Found in review: a client that leaves message ids empty had every message after its first
    /// answered as a "retry" of it.
    @Test("Messages without a message id are each done, not taken for retries")
    func emptyMessageIDs() {
        var fixture = DeskFixture()
        fixture.openSessions()
        for index in 1...2 {
            var envelope = Envelope(
                .rideRequest(
                    Wire.RideRequest.with {
                        $0.requestID = "req-\(index)"; $0.riderID = "r-1"; $0.pickup = fixture.at(1, 1);
                        $0.dropoff = fixture.at(5, 5)
                    }), from: fixture.riders.next())
            envelope.messageID = ""
            let out = fixture.desk.receive(envelope, from: DeskFixture.ridersPeer, at: Double(index))
            #expect(
                bodies(out, to: DeskFixture.ridersPeer).contains {
                    if case .requestReceived(let r) = $0 { r.requestID == "req-\(index)" } else { false }
                })
        }
        #expect(fixture.desk.engine.unfinishedRequests.count == 2)
    }

    @Test("A silent drivers session expires: its drivers go offline and their riders are matched again")
    func expiry() throws {
        var fixture = DeskFixture()
        guard fixture.driverOnItsWay() else { return }
        _ = fixture.rider(.heartbeat(Heartbeat()), at: 6)
        let quiet = fixture.desk.tick(at: 7)
        #expect(!published(quiet).contains(.sessionExpired), "5 s have not passed for either session")
        _ = fixture.rider(.heartbeat(Heartbeat()), at: 8.5)
        let expired = fixture.desk.tick(at: 9)
        #expect(published(expired).contains(.sessionExpired))
        #expect(
            bodies(expired, to: DeskFixture.ridersPeer).contains {
                if case .tripUpdate(let u) = $0 { u.state == .matching } else { false }
            })
        #expect(fixture.desk.engine.state(of: DriverID(1)) == .offline)
        #expect(fixture.desk.sessionCount == 1)
        let late = fixture.legDone(1, at: 10)
        guard case .error(let refusal)? = bodies(late, to: DeskFixture.driversPeer).first else {
            Issue.record("no refusal"); return
        }
        #expect(refusal.code == .unknownSession)
    }

    /// Found by the city across hosts in CI: a driver process crashed while one of its cars was on
    /// a trip at shard 0 and was started again; its new life brought the car online at shard 1,
    /// where it stood, and shard 1 gave it a third rider while shard 0 still counted it on the
    /// trip until the old session expired (the verdict: "driver-10 held rider-18, rider-23,
    /// rider-34").
    @Test(
        "A host process started again ends its earlier session at once: its drivers go offline (their riders matched again), its riders' open requests are cancelled; a tool's second session ends nothing"
    )
    func newLifeEndsTheOldSession() throws {
        var fixture = DeskFixture()
        guard fixture.driverOnItsWay() else { return }
        #expect(fixture.desk.engine.state(of: DriverID(1)) != .offline)
        let newPeer: [UInt8] = [3]
        var newLife = SequenceStamper(sender: "drivers-1.2")
        let hello = fixture.desk.receive(
            Envelope(DeskFixture.hello(.drivers, "drivers-1.2", process: "drivers-1"), from: newLife.next()), from: newPeer,
            at: 4)
        #expect(bodies(hello, to: newPeer).contains { if case .welcome = $0 { true } else { false } })
        #expect(published(hello).contains(.sessionClosed) && published(hello).contains(.sessionOpened))
        let closed = hello.compactMap { if case .publish(_, let event) = $0, event.kind == .sessionClosed { event } else { nil } }
        #expect(closed.map(\.sessionID) == ["drivers-1"])
        #expect(closed.first?.reason.contains("started again (session drivers-1.2)") == true, "\(closed)")
        #expect(fixture.desk.engine.state(of: DriverID(1)) == .offline, "at once, not when the old session falls silent")
        #expect(
            bodies(hello, to: DeskFixture.ridersPeer).contains {
                if case .tripUpdate(let update) = $0 { update.state == .matching } else { false }
            }, "the rider is matched again")
        #expect(fixture.desk.sessionCount == 2)
        // The old life's late words are the words of a session that has ended.
        let late = fixture.legDone(1, at: 5)
        #expect(errorReply(late, to: DeskFixture.driversPeer)?.code == .unknownSession)

        // A riders process started again: its open request is cancelled by dispatch, saying why.
        let waiting = fixture.rider(
            .rideRequest(
                Wire.RideRequest.with {
                    $0.requestID = "req-2"; $0.riderID = "r-2"; $0.pickup = fixture.at(2, 2); $0.dropoff = fixture.at(6, 6)
                }), at: 6)
        #expect(errorReply(waiting, to: DeskFixture.ridersPeer) == nil)
        var riders = SequenceStamper(sender: "riders-1.2")
        let riderHello = fixture.desk.receive(
            Envelope(DeskFixture.hello(.riders, "riders-1.2", process: "riders-1"), from: riders.next()), from: [4], at: 7)
        #expect(published(riderHello).contains(.requestCancelled), "\(published(riderHello))")
        let cancelled = riderHello.compactMap {
            if case .publish(_, let event) = $0, event.kind == .requestCancelled { event } else { nil }
        }
        #expect(cancelled.allSatisfy { $0.reason == "the rider's process started again" }, "\(cancelled)")

        // Tools may hold several sessions: a second one ends nothing.
        var tools = SequenceStamper(sender: "watch-2")
        _ = fixture.desk.receive(
            Envelope(DeskFixture.hello(.tool, "watch-1", process: "watch"), from: tools.next()), from: [5], at: 8)
        let second = fixture.desk.receive(
            Envelope(DeskFixture.hello(.tool, "watch-2", process: "watch"), from: tools.next()), from: [6], at: 8)
        #expect(!published(second).contains(.sessionClosed))
        #expect(fixture.desk.sessionCount == 4)
    }

    @Test("Bad values are refused with a reason naming the field; the snapshot recreates drivers and open requests")
    func badValuesAndSnapshot() {
        var fixture = DeskFixture()
        fixture.openSessions()
        let far = fixture.rider(
            .rideRequest(
                Wire.RideRequest.with {
                    $0.requestID = "req-9"; $0.riderID = "r-9";
                    $0.pickup = LatLon.with {
                        $0.lat = 41.5; $0.lon = -74
                    }; $0.dropoff = fixture.at(5, 5)
                }), at: 1)
        guard
            case .error(let error)? = bodies(far, to: DeskFixture.ridersPeer).first(where: {
                if case .error = $0 { true } else { false }
            })
        else {
            Issue.record("no error")
            return
        }
        #expect(error.code == .invalidState && error.reason.hasPrefix("pickup is"))
        let unknown = fixture.driver(
            .acceptOffer(
                AcceptOffer.with {
                    $0.offerID = "offer-77"; $0.driverID = "d-1"
                }), at: 2)
        guard case .error(let missing)? = bodies(unknown, to: DeskFixture.driversPeer).first else {
            Issue.record("no error"); return
        }
        #expect(missing.code == .unknownRequest)
        _ = fixture.driver(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = "d-1"; $0.location = fixture.at(8, 8)
                }), at: 3)
        _ = fixture.rider(
            .rideRequest(
                Wire.RideRequest.with {
                    $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = fixture.at(1, 1); $0.dropoff = fixture.at(5, 5)
                }), at: 4)
        let snapshot = fixture.desk.snapshot()
        #expect(snapshot.contains { $0.kind == .driverStateChanged && $0.driverID == "d-1" && $0.driverState == .offered })
        #expect(
            snapshot.contains {
                $0.kind == .requestCreated && $0.requestID == "req-1" && $0.tripState == .matching && $0.driverID == "d-1"
            })
    }
}

@Suite("Trip updates as the protocol documents them")
struct TripUpdateTests {
    /// Found in review of the protocol: DRIVER_ARRIVED was documented and never sent.
    @Test("At the pickup the rider hears DRIVER_ARRIVED, then ON_TRIP; the bus sees the arrival before the trip starts")
    func arrivalThenTrip() throws {
        var city = try #require(ForgeryFixture())
        let done = city.pickupDone()
        let states = bodies(done, to: DeskFixture.ridersPeer).compactMap { body -> TripState? in
            if case .tripUpdate(let update) = body { update.state } else { nil }
        }
        #expect(states == [.driverArrived, .onTrip])
        let events = published(done).filter { $0 == .driverArrived || $0 == .tripStarted }
        #expect(events == [.driverArrived, .tripStarted])
    }
}
