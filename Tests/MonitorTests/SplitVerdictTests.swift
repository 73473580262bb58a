import Monitor
import Testing
import Wire

@Suite("The verdict's split-fare row, and the features counted on the board")
struct SplitVerdictTests {
    static let check = "split fares sum to the fare, each payer once"

    func split(_ recording: inout Recording, _ request: String, fare: Int64, shares: [(String, Int64)]) {
        recording.envelopes.append(
            Envelope(
                .dispatchEvent(
                    Wire.DispatchEvent.with {
                        $0.kind = .fareSplit
                        $0.requestID = request
                        $0.fareCents = fare
                        $0.shares = shares.map { rider, cents in
                            FareShare.with {
                                $0.riderID = rider
                                $0.cents = cents
                            }
                        }
                    }), from: recording.stamper.next()))
    }

    func invited(_ recording: inout Recording, _ request: String, _ riders: [String]) {
        recording.envelopes.append(
            Envelope(
                .dispatchEvent(
                    Wire.DispatchEvent.with {
                        $0.kind = .splitInvited
                        $0.requestID = request
                        $0.contacts = riders
                    }), from: recording.stamper.next()))
    }

    func row(_ recording: Recording) -> VerdictRow? {
        RunVerdict(recording: recording.envelopes, poolCapacity: 2).rows.first { $0.check == Self.check }
    }

    @Test("No invitations, no row; a sound split passes")
    func soundSplit() {
        var recording = Recording.reported()
        recording.ride("r-1", driver: "d-1")
        #expect(row(recording) == nil)
        invited(&recording, "r-1", ["r-2", "r-3"])
        split(&recording, "r-1", fare: 1_200, shares: [("r-1", 600), ("r-2", 600)])
        #expect(row(recording) == VerdictRow(check: Self.check, passed: true, detail: "1 fares split, 2 riders invited"))
        #expect(RunVerdict(recording: recording.envelopes, poolCapacity: 2).passed)
    }

    @Test(
        "Each broken promise is named: a wrong sum, another fare than the trip's, a payer twice, a split twice, a split before the trip ended",
        arguments: [
            ([("r-1", 600), ("r-2", 599)], 1_200, false, "r-1's shares sum to 1199 cents, its fare is 1200"),
            ([("r-1", 500), ("r-2", 500)], 1_000, false, "r-1 was split as 1000 cents but completed at 1200"),
            ([("r-1", 600), ("r-1", 600)], 1_200, false, "r-1's split charges a rider twice"),
            ([("r-1", 600), ("r-2", 600)], 1_200, true, "r-1's fare was split twice"),
        ])
    func brokenSplits(shares: [(String, Int64)], fare: Int64, twice: Bool, reason: String) {
        var recording = Recording.reported()
        recording.ride("r-1", driver: "d-1")
        split(&recording, "r-1", fare: fare, shares: shares)
        if twice { split(&recording, "r-1", fare: fare, shares: shares) }
        #expect(row(recording) == VerdictRow(check: Self.check, passed: false, detail: reason))
        var early = Recording.reported()
        early.add(.requestCreated, request: "r-9")
        split(&early, "r-9", fare: 100, shares: [("r-9", 100)])
        #expect(row(early)?.detail == "r-9's fare was split before its trip completed")
    }

    @Test("The board counts shares, invitations, answers and splits; the report adds the kill switch from hosts' reports")
    func boardCounts() {
        var board = MonitorBoard()
        var stamper = SequenceStamper(sender: "dispatch-bus")
        func publish(_ kind: DispatchEventKind, _ fill: (inout Wire.DispatchEvent) -> Void) {
            var event = Wire.DispatchEvent.with { $0.kind = kind }
            fill(&event)
            board.apply(Envelope(.dispatchEvent(event), from: stamper.next()))
        }
        publish(.etaShared) { $0.contacts = ["r-2", "r-3"] }
        publish(.splitInvited) { $0.contacts = ["r-4"] }
        publish(.splitAnswered) { $0.accepted = true }
        publish(.splitAnswered) { $0.accepted = false }
        publish(.fareSplit) { _ in }
        var hostStamper = SequenceStamper(sender: "riders-0-status")
        board.apply(
            Envelope(
                .processStatus(
                    ProcessStatus.with {
                        $0.processID = "riders-0"
                        $0.switchedOff = ["rider.split_fare": 3]
                    }), from: hostStamper.next()))
        let features = MonitorReport(board).features
        #expect(features?.etaShares == 1 && features?.ridersSharedWith == 2 && features?.splitInvitations == 1)
        #expect(features?.splitsAccepted == 1 && features?.splitsDeclined == 1 && features?.fareSplits == 1)
        #expect(features?.switchedOff == ["rider.split_fare": 3])
        #expect(
            features?.line
                == "features: 1 ETAs shared with 2 riders · 1 invited to split (1 accepted, 1 declined) · 1 fares split · "
                + "kill switch: rider.split_fare off in 3 apps")
        #expect(MonitorReport(MonitorBoard()).features == nil, "absent from runs without the features")
    }
}
