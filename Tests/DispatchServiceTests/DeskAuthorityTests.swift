import Foundation
import RideDispatch
import Testing
import Wire
import ZeroMQ

@testable import DispatchService

/// A city where riders-1's rider r-1 has ride req-1, accepted by drivers-1's driver d-1, and a
/// stranger has a session of its own (as any process that reaches the socket could).
struct ForgeryFixture {
    var fixture = DeskFixture()
    var stranger = SequenceStamper(sender: "stranger")
    static let strangerPeer: [UInt8] = [66]

    init?(settings: DispatchDesk.Settings = DispatchDesk.Settings()) {
        fixture = DeskFixture(settings: settings)
        fixture.openSessions()
        let ride = Wire.RideRequest.with {
            $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = fixture.at(2, 0); $0.dropoff = fixture.at(6, 0)
            $0.product = .uberX
        }
        guard fixture.acceptedRide(ride) != nil else { return nil }
        _ = fromStranger(DeskFixture.hello(.riders, "stranger"), at: 3)
    }

    /// d-1 reports its pickup leg done, from its own session (the real one).
    mutating func pickupDone() -> [Outgoing] {
        fixture.driver(
            .legDone(
                LegDone.with {
                    $0.driverID = "d-1"; $0.leg = 1
                }), at: 30)
    }

    mutating func fromStranger(_ body: Envelope.OneOf_Body, at time: Double) -> [Outgoing] {
        fixture.desk.receive(Envelope(body, from: stranger.next()), from: Self.strangerPeer, at: time)
    }

    /// Everything dispatch holds that a forgery could change: its state as a snapshot, and each
    /// driver's line (session, last leg, position).
    var state: [String] {
        let desk = fixture.desk
        return desk.snapshot().map { "\($0)" } + desk.driverLines.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            + desk.riderLines.sorted { $0.key < $1.key }.map { "\($0.key) \(String(describing: $0.value.session))" }
            + ["requests \(desk.requestCount)", "stop \(desk.stopRequested)"]
    }
}

/// The error code of the one reply a message got, or nil if it got none or several.
func refusal(_ out: [Outgoing], to peer: [UInt8]) -> ErrorCode? {
    let replies = out.compactMap { item -> Envelope.OneOf_Body? in
        if case .toPeer(peer, let body, _) = item { body } else { nil }
    }
    guard replies.count == 1, case .error(let error)? = replies.first else { return nil }
    return error.code
}

@Suite("Each session acts only for its own: forged commands are refused and change nothing")
struct DeskAuthorityTests {
    @Test("Every forgery from a stranger's session is refused FORBIDDEN, counted, and leaves dispatch as it was")
    func forgeriesRefused() throws {
        var city = try #require(ForgeryFixture())
        let position = city.fixture.at(8, 8)
        let forgeries: [(String, Envelope.OneOf_Body)] = [
            ("another's driver offline", .driverOffline(DriverOffline.with { $0.driverID = "d-1" })),
            (
                "another's ride cancelled",
                .cancelRide(
                    CancelRide.with {
                        $0.requestID = "req-1"; $0.riderID = "r-1"
                    })
            ),
            (
                "another's trip rated",
                .rateTrip(
                    RateTrip.with {
                        $0.tripID = "trip-req-1"; $0.riderID = "r-1"; $0.stars = 1
                    })
            ),
            (
                "a real driver's id online",
                .driverOnline(
                    DriverOnline.with {
                        $0.driverID = "d-1"; $0.location = position
                    })
            ),
            (
                "another's driver moved",
                .locationUpdate(
                    LocationUpdate.with {
                        $0.driverID = "d-1"; $0.location = position
                    })
            ),
            (
                "another's driver among a fleet's reports",
                .locationReports(
                    LocationReports.with {
                        $0.updates = [
                            LocationUpdate.with {
                                $0.driverID = "d-1"; $0.location = position
                            }
                        ]
                    })
            ),
            (
                "a ride in a victim's name",
                .rideRequest(
                    Wire.RideRequest.with {
                        $0.requestID = "req-9"; $0.riderID = "r-1"; $0.pickup = position; $0.dropoff = city.fixture.at(0, 8)
                    })
            ),
            (
                "a victim's request id",
                .rideRequest(
                    Wire.RideRequest.with {
                        $0.requestID = "req-1"; $0.riderID = "r-evil"; $0.pickup = position; $0.dropoff = city.fixture.at(0, 8)
                    })
            ),
            (
                "another driver's offer accepted",
                .acceptOffer(
                    AcceptOffer.with {
                        $0.offerID = "offer-1"; $0.driverID = "d-1"
                    })
            ),
            (
                "another driver's offer declined",
                .declineOffer(
                    DeclineOffer.with {
                        $0.offerID = "offer-1"; $0.driverID = "d-1"
                    })
            ),
            (
                "another driver's leg done",
                .legDone(
                    LegDone.with {
                        $0.driverID = "d-1"; $0.leg = 1
                    })
            ),
            (
                "a quote for another's rider",
                .quoteRequest(
                    QuoteRequest.with {
                        $0.riderID = "r-1"; $0.pickup = position; $0.dropoff = position
                    })
            ),
            ("Stop from a riders session", .stop(Stop.with { $0.reason = "forged" })),
            ("the whole state asked for by a riders session", .snapshotRequest(SnapshotRequest())),
        ]
        let before = city.state
        for (index, (name, body)) in forgeries.enumerated() {
            let out = city.fromStranger(body, at: 4 + Double(index))
            #expect(refusal(out, to: ForgeryFixture.strangerPeer) == .forbidden, "\(name): \(out)")
            #expect(!out.contains { if case .snapshot = $0 { true } else { false } }, "\(name)")
            #expect(
                !out.contains { if case .toPeer(let peer, _, _) = $0 { peer != ForgeryFixture.strangerPeer } else { false } },
                "\(name)")
        }
        #expect(city.fixture.desk.forbiddenCount == forgeries.count)
        #expect(city.fixture.desk.checks.forbidden == UInt32(forgeries.count))
        // Ticks in between would move the engine's clock; the state is compared at one instant.
        #expect(city.state == before)
        // The real driver is still d-1's session's: its pickup is accepted from there.
        let done = city.pickupDone()
        #expect(acks(done, to: DeskFixture.driversPeer).count == 1)
    }

    @Test(
        "A host's location reports of one instant in one message: answered by nothing from the session holding every driver named; one driver not its own refuses the whole message"
    )
    func reportsTogether() throws {
        var city = try #require(ForgeryFixture())
        func reports(_ drivers: [String]) -> Envelope.OneOf_Body {
            .locationReports(
                LocationReports.with {
                    $0.updates = drivers.map { driver in
                        LocationUpdate.with {
                            $0.driverID = driver; $0.location = city.fixture.at(4, 0)
                        }
                    }
                })
        }
        // d-7 online on the stranger's session: another session's driver.
        let online = city.fromStranger(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = "d-7"; $0.location = city.fixture.at(8, 8)
                }), at: 3.5)
        #expect(refusal(online, to: ForgeryFixture.strangerPeer) == nil, "\(online)")
        let before = city.state
        #expect(city.fixture.driver(reports(["d-1", "d-1"]), at: 4).isEmpty)
        let mixed = city.fixture.driver(reports(["d-1", "d-7"]), at: 5)
        #expect(refusal(mixed, to: DeskFixture.driversPeer) == .forbidden, "\(mixed)")
        #expect(city.fixture.desk.forbiddenCount == 1)
        #expect(city.state == before)
    }

    @Test("A Hello for another's session id without its token, or with a wrong one, is refused; the session stays where it was")
    func hijackRefused() throws {
        var city = try #require(ForgeryFixture())
        let before = city.state
        let attempts: [Envelope.OneOf_Body] = [
            .hello(
                Hello.with {
                    $0.role = .riders; $0.sessionID = "riders-1"; $0.process = "riders-1"
                }),
            .hello(
                Hello.with {
                    $0.role = .riders; $0.sessionID = "riders-1"; $0.process = "riders-1";
                    $0.sessionToken = Data(repeating: 7, count: 16)
                }),
            // Another principal with the right token still does not get it.
            .hello(
                Hello.with {
                    $0.role = .riders; $0.sessionID = "riders-1"; $0.process = "stranger"
                    $0.sessionToken = Data("riders-1".utf8.map { $0 ^ 0x5A })
                }),
        ]
        for (index, hello) in attempts.enumerated() {
            let out = city.fromStranger(hello, at: 4 + Double(index))
            #expect(refusal(out, to: ForgeryFixture.strangerPeer) == .forbidden, "\(out)")
        }
        #expect(city.state == before)
        // What follows for r-1 still goes to riders-1's own socket, none to the stranger's.
        let done = city.pickupDone()
        #expect(bodies(done, to: ForgeryFixture.strangerPeer).isEmpty)
        #expect(bodies(done, to: DeskFixture.ridersPeer).contains { if case .tripUpdate = $0 { true } else { false } })
    }

    @Test(
        "With the topology's split, a session acts only for its own process's riders and drivers; a new life of that process takes them back"
    )
    func splitOwnership() {
        var settings = DispatchDesk.Settings()
        settings.owners = AppOwners(
            rider: { name in WireIDs.number(ofRider: name).map { WireIDs.riderProcess($0 % 2) } },
            driver: { name in WireIDs.number(ofDriver: name).map { WireIDs.driverProcess($0 < 5 ? 0 : 1) } })
        let fixture = DeskFixture(settings: settings)
        var stamps = SequenceStamper(sender: "several")
        func send(_ body: Envelope.OneOf_Body, from peer: [UInt8], at time: Double) -> [Outgoing] {
            fixture.desk.receive(Envelope(body, from: stamps.next()), from: peer, at: time)
        }
        _ = send(DeskFixture.hello(.riders, "riders-1"), from: [1], at: 0)
        _ = send(DeskFixture.hello(.drivers, "drivers-0"), from: [2], at: 0)
        func online(_ driver: String) -> Envelope.OneOf_Body {
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = driver; $0.location = fixture.at(0, 0)
                })
        }
        func ride(_ rider: String) -> Envelope.OneOf_Body {
            .rideRequest(
                Wire.RideRequest.with {
                    $0.requestID = rider; $0.riderID = rider; $0.pickup = fixture.at(1, 0); $0.dropoff = fixture.at(5, 0)
                })
        }
        #expect(refusal(send(ride("rider-2"), from: [1], at: 1), to: [1]) == .forbidden, "rider-2 is riders-0's")
        #expect(refusal(send(ride("rider-3"), from: [1], at: 1), to: [1]) == nil, "rider-3 is riders-1's")
        #expect(refusal(send(online("driver-7"), from: [2], at: 1), to: [2]) == .forbidden, "driver-7 is drivers-1's")
        #expect(refusal(send(online("driver-4"), from: [2], at: 1), to: [2]) == nil)
        // drivers-0 restarted: its new life's session takes driver-4 over; another process may not.
        _ = send(DeskFixture.hello(.drivers, "drivers-0.2", process: "drivers-0"), from: [3], at: 2)
        _ = send(DeskFixture.hello(.drivers, "drivers-1"), from: [4], at: 2)
        #expect(refusal(send(online("driver-4"), from: [4], at: 3), to: [4]) == .forbidden)
        #expect(refusal(send(online("driver-4"), from: [3], at: 3), to: [3]) == nil)
        #expect(fixture.desk.driverLines["driver-4"]?.session == "drivers-0.2")
        #expect(fixture.desk.forbiddenCount == 3)
    }

    @Test("Stop and snapshots are the coordinator's and monitors': before Hello they are unknown, from others forbidden")
    func overseersOnly() {
        let fixture = DeskFixture()
        var stamps = SequenceStamper(sender: "tools")
        func send(_ body: Envelope.OneOf_Body, from peer: [UInt8]) -> [Outgoing] {
            fixture.desk.receive(Envelope(body, from: stamps.next()), from: peer, at: 1)
        }
        let stop = Envelope.OneOf_Body.stop(Stop.with { $0.reason = "test" })
        #expect(refusal(send(stop, from: [7]), to: [7]) == .unknownSession)
        #expect(refusal(send(.snapshotRequest(SnapshotRequest()), from: [7]), to: [7]) == .unknownSession)
        #expect(!fixture.desk.stopRequested)
        _ = send(DeskFixture.hello(.monitor, "monitor"), from: [8])
        let snapshot = send(.snapshotRequest(SnapshotRequest()), from: [8])
        #expect(snapshot.contains { if case .snapshot(peer: [8], _) = $0 { true } else { false } })
        _ = send(DeskFixture.hello(.coordinator, "coordinator"), from: [9])
        #expect(acks(send(stop, from: [9]), to: [9]).count == 1)
        #expect(fixture.desk.stopRequested)
    }

    @Test("Over CURVE a Hello may not claim another process or role than its key was issued to")
    func keyDecidesPrincipal() {
        let fixture = DeskFixture()
        var stamps = SequenceStamper(sender: "keyed")
        func hello(_ body: Envelope.OneOf_Body, key: String) -> [Outgoing] {
            fixture.desk.receive(Envelope(body, from: stamps.next()), from: [5], authenticated: key, at: 0)
        }
        #expect(refusal(hello(DeskFixture.hello(.riders, "riders-1"), key: "riders-0"), to: [5]) == .forbidden)
        #expect(refusal(hello(DeskFixture.hello(.coordinator, "x", process: "riders-0"), key: "riders-0"), to: [5]) == .forbidden)
        let welcomed = hello(DeskFixture.hello(.riders, "riders-0"), key: "riders-0")
        #expect(bodies(welcomed, to: [5]).contains { if case .welcome = $0 { true } else { false } })
        #expect(fixture.desk.sessions["riders-0"]?.principal == Principal(role: .riders, process: "riders-0"))
    }
}

@Suite("The cost of bad input is bounded")
struct BadInputCostTests {
    @Test("A flood of garbage is journaled as a few bytes a frame, answered MALFORMED, and counted again on replay")
    func garbageJournaledCompactly() throws {
        let core = freshCore(DeskFixture())
        var kept: [JournalEntry] = []
        var answers: [Message] = []
        let garbage = [UInt8](repeating: 0xFF, count: 65_536)
        for index in 0..<100 {
            var out = Outbox()
            kept.append(core.apply(.received(time: Double(index), frames: [[9], garbage]), into: &out))
            answers += out.refusals
        }
        let bytes = kept.reduce(0) { $0 + $1.encoded.count }
        #expect(bytes < 100 * 64, "\(bytes) bytes journaled for 100 frames of 64 KiB")
        #expect(core.malformed.total == 100 && answers.count == 100)
        let reply = try Frames.Routed(frames: try #require(answers.first).frames)
        #expect(reply.peer == [9] && reply.envelope.error.code == .malformed)
        let replayed = freshCore(DeskFixture())
        _ = run(kept.map { try! JournalEntry(decoding: $0.encoded[...]) }, on: replayed)
        #expect(replayed.malformed == core.malformed)
    }
}

@Suite("Each connection's rate is bounded")
struct ConnectionRateLimitTests {
    @Test(
        "A flood from one connection is cut to its rate after the burst; another connection is not held up; the allowance refills"
    )
    func floodCut() {
        var limit = ConnectionRateLimit(perSecond: 100, burst: 50)
        let flood = (0..<1_000).filter { limit.admit([1], at: Double($0) / 10_000) }.count
        // 50 of burst plus 100/s over the 99.9 ms the flood took: 9 whole tokens more.
        #expect(flood == 59)
        let other = limit.admit([2], at: 0.1)
        #expect(other, "another connection has its own allowance")
        #expect(limit.dropped == 941)
        let refilled = limit.admit([1], at: 1.0)
        #expect(refilled, "a second later it may send again")
    }

    @Test("New connections without end do not grow the books without bound")
    func boundedBooks() {
        var limit = ConnectionRateLimit(perSecond: 10, burst: 5, remembered: 100)
        for index in 0..<10_000 {
            _ = limit.admit(withUnsafeBytes(of: UInt32(index)) { Array($0) }, at: Double(index))
        }
        #expect(limit.count <= 101)
        #expect(limit.dropped == 0)
    }
}
