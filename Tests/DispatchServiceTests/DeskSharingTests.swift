import City
import RideDispatch
import Testing
import Wire

@testable import DispatchService

/// Rider-1's ride, taken by d-1 at 3 s, with rider-2 and rider-3 waiting for rides of their own
/// (in the app) and rider-9 not in the app.
struct SharingFixture {
    var fixture = DeskFixture()
    let peer = DeskFixture.ridersPeer

    init() {
        fixture.openSessions()
        _ = fixture.acceptedRide(Self.ride("rider-1", from: fixture.at(2, 0), to: fixture.at(6, 0)))
        for rider in ["rider-2", "rider-3"] {
            _ = fixture.rider(.rideRequest(Self.ride(rider, from: fixture.at(8, 8), to: fixture.at(0, 8))), at: 4)
        }
    }

    static func ride(_ rider: String, from pickup: LatLon, to dropoff: LatLon) -> Wire.RideRequest {
        Wire.RideRequest.with {
            $0.requestID = rider; $0.riderID = rider; $0.pickup = pickup; $0.dropoff = dropoff; $0.product = .uberX
        }
    }

    mutating func legDone(_ leg: UInt32, at time: Double) -> [Outgoing] {
        fixture.driver(
            .legDone(
                LegDone.with {
                    $0.driverID = "d-1"; $0.leg = leg
                }), at: time)
    }

    mutating func invite(_ invitees: [String], at time: Double) -> [Outgoing] {
        fixture.rider(
            .splitFareInvite(
                SplitFareInvite.with {
                    $0.requestID = "rider-1"; $0.riderID = "rider-1"; $0.inviteeIds = invitees
                }), at: time)
    }

    mutating func answer(_ invitation: String, by rider: String, accept: Bool, at time: Double) -> [Outgoing] {
        fixture.rider(
            .splitAnswer(
                SplitAnswer.with {
                    $0.invitationID = invitation; $0.riderID = rider; $0.accept = accept
                }), at: time)
    }

    func events(_ out: [Outgoing], _ kind: DispatchEventKind) -> [Wire.DispatchEvent] {
        out.compactMap { if case .publish(_, let event) = $0, event.kind == kind { event } else { nil } }
    }
}

@Suite("Dispatch desk: shared ETAs and split fares, message by message")
struct DeskSharingTests {
    @Test("A shared ETA reaches riders in the app at every change of the ride, and ends with it")
    func shareETA() {
        var sharing = SharingFixture()
        let out = sharing.fixture.rider(
            .shareEta(
                ShareEta.with {
                    $0.requestID = "rider-1"; $0.riderID = "rider-1";
                    $0.recipientIds = ["rider-2", "rider-9", "rider-1", "rider-2"]
                }), at: 5)
        #expect(acks(out, to: sharing.peer).count == 1)
        let shared = bodies(out, to: sharing.peer).compactMap { if case .sharedEta(let s) = $0 { s } else { nil } }
        #expect(shared.count == 1)
        #expect(shared.first?.recipientID == "rider-2" && shared.first?.fromRiderID == "rider-1")
        #expect(shared.first?.state == .driverAssigned && shared.first?.arriveAtMs == 53_000 && shared.first?.ended == false)
        let event = sharing.events(out, .etaShared).first
        #expect(event?.contacts == ["rider-2"] && event?.reason == "1 not in the app" && event?.riderID == "rider-1")

        let pickedUp = bodies(sharing.legDone(1, at: 53), to: sharing.peer).compactMap {
            if case .sharedEta(let s) = $0 { s } else { nil }
        }
        #expect(pickedUp.map(\.state).contains(.onTrip))
        #expect(pickedUp.last?.state == .onTrip && pickedUp.last?.arriveAtMs == 153_000)

        let finished = sharing.legDone(2, at: 153)
        let done = bodies(finished, to: sharing.peer).compactMap {
            if case .sharedEta(let s) = $0 { s } else { nil }
        }
        #expect(done.count == 1 && done.first?.state == .completed && done.first?.ended == true)
        #expect(sharing.fixture.desk.sharing.shares.isEmpty, "the share ended with the ride")
    }

    @Test("Stopping a share tells each recipient it is over")
    func stopSharing() {
        var sharing = SharingFixture()
        _ = sharing.fixture.rider(
            .shareEta(
                ShareEta.with {
                    $0.requestID = "rider-1"; $0.riderID = "rider-1"; $0.recipientIds = ["rider-2", "rider-3"]
                }), at: 5)
        let out = sharing.fixture.rider(
            .shareEta(
                ShareEta.with {
                    $0.requestID = "rider-1"; $0.riderID = "rider-1"; $0.stop = true
                }), at: 6)
        let ended = bodies(out, to: sharing.peer).compactMap { if case .sharedEta(let s) = $0 { s } else { nil } }
        #expect(ended.map(\.recipientID) == ["rider-2", "rider-3"] && ended.allSatisfy(\.ended))
        #expect(
            bodies(sharing.legDone(1, at: 53), to: sharing.peer).allSatisfy { if case .sharedEta = $0 { false } else { true } })
    }

    @Test("A split fare: invitations to riders in the app, answers taken once, shares summing to the fare")
    func splitFare() throws {
        var sharing = SharingFixture()
        let invited = sharing.invite(["rider-2", "rider-3", "rider-9"], at: 5)
        let invitations = bodies(invited, to: sharing.peer).compactMap { if case .splitInvitation(let i) = $0 { i } else { nil } }
        #expect(invitations.map(\.inviteeID) == ["rider-2", "rider-3"])
        #expect(invitations.allSatisfy { $0.estimatedFareCents > 0 && $0.expiresAtMs == 185_000 && $0.fromRiderID == "rider-1" })
        #expect(sharing.events(invited, .splitInvited).first?.contacts == ["rider-2", "rider-3"])

        let accepted = sharing.answer(invitations[0].invitationID, by: "rider-2", accept: true, at: 20)
        #expect(sharing.events(accepted, .splitAnswered).first?.accepted == true)
        #expect(
            sharing.events(sharing.answer(invitations[0].invitationID, by: "rider-2", accept: false, at: 21), .splitAnswered)
                .isEmpty)
        _ = sharing.answer(invitations[1].invitationID, by: "rider-3", accept: false, at: 22)

        _ = sharing.legDone(1, at: 53)
        let done = sharing.legDone(2, at: 153)
        let splits = bodies(done, to: sharing.peer).compactMap { if case .fareSplit(let s) = $0 { s } else { nil } }
        #expect(splits.map(\.riderID) == ["rider-1", "rider-2"])
        let split = try #require(splits.first)
        #expect(split.shares.map(\.riderID) == ["rider-1", "rider-2"])
        #expect(split.shares.reduce(0) { $0 + $1.cents } == split.fareCents)
        let completed = sharing.events(done, .tripCompleted).first
        #expect(completed?.fareCents == split.fareCents)
        #expect(sharing.events(done, .fareSplit).first?.shares == split.shares)
        #expect(sharing.fixture.desk.checker.violations.isEmpty && sharing.fixture.desk.checker.splitCount == 1)
    }

    @Test("Answers after the invitation lapsed, for another rider or for an ended ride are refused")
    func lateAndForeignAnswers() {
        var sharing = SharingFixture()
        let invited = sharing.invite(["rider-2"], at: 5)
        guard case .splitInvitation(let invitation)? = bodies(invited, to: sharing.peer).first else {
            Issue.record("no invitation")
            return
        }
        let foreign = bodies(sharing.answer(invitation.invitationID, by: "rider-3", accept: true, at: 10), to: sharing.peer)
        #expect(foreign.contains { if case .error(let e) = $0 { e.code == .unknownRequest } else { false } })
        let late = bodies(sharing.answer(invitation.invitationID, by: "rider-2", accept: true, at: 186), to: sharing.peer)
        #expect(late.contains { if case .error(let e) = $0 { e.code == .expired } else { false } })
        _ = sharing.legDone(1, at: 53)
        let done = sharing.legDone(2, at: 153)
        #expect(sharing.events(done, .fareSplit).isEmpty, "nobody accepted: the inviter pays it all")
        let after = bodies(sharing.answer(invitation.invitationID, by: "rider-2", accept: true, at: 160), to: sharing.peer)
        #expect(after.contains { if case .error = $0 { true } else { false } })
    }

    @Test("Shares of a fare: equal, the cents that do not divide going to the first payers")
    func shareArithmetic() {
        #expect(RideSharing.shares(of: 1_000, among: ["a", "b", "c"]).map(\.cents) == [334, 333, 333])
        #expect(RideSharing.shares(of: 1_001, among: ["a", "b", "c"]).map(\.cents) == [334, 334, 333])
        #expect(RideSharing.shares(of: 2, among: ["a", "b", "c"]).map(\.cents) == [1, 1, 0])
        #expect(RideSharing.shares(of: 999, among: []).isEmpty)
        for fare in Int64(0)...500 {
            for payers in 1...5 {
                let shares = RideSharing.shares(of: fare, among: (0..<payers).map { "r\($0)" })
                #expect(shares.reduce(0) { $0 + $1.cents } == fare)
                #expect(shares.map(\.cents).max()! - shares.map(\.cents).min()! <= 1)
            }
        }
    }

    @Test("The checker flags a split whose shares do not sum to the fare, a payer charged twice, a fare split twice")
    func checkerRow() {
        let checker = InvariantChecker(poolCapacity: 2)
        checker.recordSplit(of: RequestID(1), fareCents: 1_000, shares: [("a", 500), ("b", 500)], at: 1)
        #expect(checker.violations.isEmpty)
        checker.recordSplit(of: RequestID(2), fareCents: 1_000, shares: [("a", 500), ("b", 499)], at: 2)
        checker.recordSplit(of: RequestID(3), fareCents: 1_000, shares: [("a", 500), ("a", 500)], at: 3)
        checker.recordSplit(of: RequestID(1), fareCents: 1_000, shares: [("a", 500), ("b", 500)], at: 4)
        #expect(checker.violations.map(\.message).count == 3)
        #expect(checker.violations[0].message.contains("sum to 999"))
        #expect(checker.violations[1].message.contains("twice"))
        #expect(checker.violations[2].message.contains("split twice"))
    }

    @Test("Sharing and splitting act only for the sender's own rides and riders")
    func authority() {
        var sharing = SharingFixture()
        let stranger: [UInt8] = [9]
        var stamper = SequenceStamper(sender: "riders-2")
        _ = sharing.fixture.desk.receive(
            Envelope(DeskFixture.hello(.riders, "riders-2"), from: stamper.next()), from: stranger, at: 5)
        let forged = sharing.fixture.desk.receive(
            Envelope(
                .shareEta(
                    ShareEta.with {
                        $0.requestID = "rider-1"; $0.riderID = "rider-1"; $0.recipientIds = ["rider-2"]
                    }), from: stamper.next()), from: stranger, at: 6)
        #expect(bodies(forged, to: stranger).contains { if case .error(let e) = $0 { e.code == .forbidden } else { false } })
        let mislabelled = sharing.fixture.rider(
            .shareEta(
                ShareEta.with {
                    $0.requestID = "rider-1"; $0.riderID = "rider-2"; $0.recipientIds = ["rider-3"]
                }), at: 7)
        #expect(
            bodies(mislabelled, to: sharing.peer).contains { if case .error(let e) = $0 { e.code == .forbidden } else { false } })
    }
}
