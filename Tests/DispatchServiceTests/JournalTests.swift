import City
import Foundation
import RideDispatch
import Testing
import Wire
import ZeroMQ

@testable import DispatchService

/// A ride scripted as journal entries: what sessions send (as the ROUTER hands it over) and the
/// timer's ticks, for a dispatch core to act on.
struct ScriptedRide {
    let fixture = DeskFixture()
    var riders = SequenceStamper(sender: "riders-1")
    var drivers = SequenceStamper(sender: "drivers-1")

    mutating func rider(_ body: Envelope.OneOf_Body, at time: Double, peer: [UInt8] = DeskFixture.ridersPeer) -> JournalEntry {
        .received(time: time, frames: Frames.Routed(peer: peer, envelope: Envelope(body, from: riders.next())).frames)
    }

    mutating func driver(_ body: Envelope.OneOf_Body, at time: Double, peer: [UInt8] = DeskFixture.driversPeer) -> JournalEntry {
        .received(time: time, frames: Frames.Routed(peer: peer, envelope: Envelope(body, from: drivers.next())).frames)
    }

    func request(_ id: String, at time: Double) -> Envelope.OneOf_Body {
        .rideRequest(
            Wire.RideRequest.with {
                $0.requestID = id; $0.riderID = id; $0.pickup = fixture.at(2, 0); $0.dropoff = fixture.at(6, 0);
                $0.product = .uberX
            })
    }

    /// What follows ``entries()``: r-2's pickup, r-3's offer answered, then cancelled, time passing.
    mutating func afterwards() -> [JournalEntry] {
        [
            driver(
                .legDone(
                    LegDone.with {
                        $0.driverID = "d-1"; $0.leg = 2
                    }), at: 154),
            .tick(time: 155),
            driver(
                .acceptOffer(
                    AcceptOffer.with {
                        $0.offerID = "offer-3"; $0.driverID = "d-1"
                    }), at: 156),
            rider(
                .cancelRide(
                    CancelRide.with {
                        $0.requestID = "r-3"; $0.riderID = "r-3"
                    }), at: 200),
            .tick(time: 400),
        ]
    }

    /// Sessions open, two drivers online, three requests, offers answered (one declined), a
    /// pickup, ticks between, a malformed message, a snapshot request, and a shared ETA and a
    /// split fare agreed between two riders.
    mutating func entries() -> [JournalEntry] {
        var entries: [JournalEntry] = [.started(wallOriginMs: 1_700_000_000_000, speed: 1)]
        entries.append(
            rider(
                DeskFixture.hello(.riders, "riders-1"), at: 0))
        entries.append(
            driver(
                DeskFixture.hello(.drivers, "drivers-1"), at: 0))
        entries.append(
            driver(
                .driverOnline(
                    DriverOnline.with {
                        $0.driverID = "d-1"; $0.location = fixture.at(0, 0)
                    }), at: 1))
        entries.append(
            driver(
                .driverOnline(
                    DriverOnline.with {
                        $0.driverID = "d-2"; $0.location = fixture.at(8, 8)
                    }), at: 1))
        entries.append(rider(request("r-1", at: 2), at: 2))
        entries.append(.tick(time: 2.5))
        entries.append(
            driver(
                .acceptOffer(
                    AcceptOffer.with {
                        $0.offerID = "offer-1"; $0.driverID = "d-1"
                    }), at: 3))
        entries.append(rider(request("r-2", at: 4), at: 4))
        entries.append(.received(time: 4.5, frames: [[9], [0xFF, 0x01, 0x02]]))
        // r-1 shares its ETA with r-2 and invites r-2 to split the fare; r-2 accepts.
        entries.append(
            rider(
                .shareEta(
                    ShareEta.with {
                        $0.requestID = "r-1"; $0.riderID = "r-1"; $0.recipientIds = ["r-2"]
                    }), at: 4.6))
        entries.append(
            rider(
                .splitFareInvite(
                    SplitFareInvite.with {
                        $0.requestID = "r-1"; $0.riderID = "r-1"; $0.inviteeIds = ["r-2"]
                    }), at: 4.7))
        entries.append(
            rider(
                .splitAnswer(
                    SplitAnswer.with {
                        $0.invitationID = "split-1"; $0.riderID = "r-2"; $0.accept = true
                    }), at: 4.8))
        entries.append(.tick(time: 5))
        entries.append(
            driver(
                .declineOffer(
                    DeclineOffer.with {
                        $0.offerID = "offer-2"; $0.driverID = "d-2"
                    }), at: 6))
        entries.append(rider(.snapshotRequest(SnapshotRequest()), at: 7))
        entries.append(
            driver(
                .legDone(
                    LegDone.with {
                        $0.driverID = "d-1"; $0.leg = 1
                    }), at: 54))
        entries.append(rider(request("r-3", at: 60), at: 60))
        entries.append(.tick(time: 61))
        return entries
    }
}

/// Everything a core sends for `entries`, in order.
func run(_ entries: [JournalEntry], on core: DispatchCore) -> [Message] {
    var sent: [Message] = []
    for entry in entries {
        var out = Outbox()
        core.apply(entry, into: &out)
        sent += out.routed + out.refusals + out.published
    }
    return sent
}

func freshCore(_ fixture: DeskFixture, process: String = "dispatch") -> DispatchCore {
    var configuration = DispatchConfiguration()
    configuration.offerTimeoutSeconds = 30
    // Scripted sessions send no heartbeats: they must not expire between their messages.
    var settings = DispatchDesk.Settings()
    settings.sessionTimeoutMs = 600_000
    return DispatchCore(
        desk: DispatchDesk(
            engine: DispatchEngine(planner: PathFinder(graph: fixture.graph), configuration: configuration),
            settings: settings),
        process: process)
}

@Suite("Dispatch's journal: its format, and a replay that rebuilds dispatch exactly")
struct JournalTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString.prefix(8))").path
    }

    @Test("Entries written are the entries read; a missing file is an empty journal")
    func roundTrip() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try DispatchJournal.read(path: path).entries().isEmpty)
        var script = ScriptedRide()
        let entries = script.entries() + [.recovered(time: 62)]
        let journal = try DispatchJournal(path: path)
        try journal.append(Array(entries.prefix(5)))
        try journal.append(Array(entries.dropFirst(5)))
        let contents = try DispatchJournal.read(path: path)
        #expect(try contents.entries() == entries)
        #expect(!contents.truncated && contents.validBytes == journal.size)
    }

    @Test("A torn last record (killed mid-write) is left out and cut before appending resumes")
    func tornTail() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try DispatchJournal(path: path)
        try journal.append([.started(wallOriginMs: 5, speed: 60), .tick(time: 1)])
        let whole = journal.size
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data([40, 0, 0, 0, 2, 1, 2]))
        handle.closeFile()
        let torn = try DispatchJournal.read(path: path)
        #expect(torn.truncated && torn.validBytes == whole)
        #expect(try torn.entries() == [.started(wallOriginMs: 5, speed: 60), .tick(time: 1)])
        let resumed = try DispatchJournal(path: path, continuing: torn)
        try resumed.append([.tick(time: 2)])
        let after = try DispatchJournal.read(path: path)
        #expect(!after.truncated)
        #expect(try after.entries() == [.started(wallOriginMs: 5, speed: 60), .tick(time: 1), .tick(time: 2)])
    }

    @Test("A damaged journal is refused with the file, the byte offset and the reason")
    func damaged() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not a journal".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: JournalError(file: path, offset: 0, reason: .notAJournal)) { try DispatchJournal.read(path: path) }
        let bad: [UInt8] = Array("RCJ1".utf8) + [9, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0]
        let error = #expect(throws: JournalError.self) { try DispatchJournal.parse(bad, file: "d.journal") }
        #expect(error?.description == "d.journal: at byte 4: unknown record kind 7")
        let noClock = Array("RCJ1".utf8) + [9, 0, 0, 0] + JournalEntry.tick(time: 1).encoded
        #expect(throws: JournalError(file: "d.journal", offset: 4, reason: .noClock)) {
            try DispatchJournal.parse(noClock, file: "d.journal")
        }
        // A damaged record after the clock is found when a replay reaches it (one a snapshot
        // covers never is), named by its offset.
        let clock = JournalEntry.started(wallOriginMs: 5, speed: 1).encoded
        let later = Array("RCJ1".utf8) + [UInt8(clock.count), 0, 0, 0] + clock + [9, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0]
        let contents = try DispatchJournal.parse(later, file: "d.journal")
        #expect(contents.count == 2)
        let replayError = #expect(throws: JournalError.self) { try contents.forEachEntry { _ in } }
        #expect(replayError?.description == "d.journal: at byte \(8 + clock.count): unknown record kind 7")
    }

    @Test("Replaying the journal rebuilds dispatch: same snapshot, same sequence numbers, the same messages for what comes next")
    func replayIsExact() throws {
        var script = ScriptedRide()
        let entries = script.entries()
        let live = freshCore(script.fixture)
        let sentLive = run(entries, on: live)
        #expect(live.desk.requestCount == 3 && live.malformed.total == 1)
        #expect(sentLive.count > 20)

        let restored = freshCore(script.fixture)
        #expect(run(entries, on: restored) == sentLive, "a replay acts exactly as the live run did")
        #expect(restored.desk.snapshot() == live.desk.snapshot())
        #expect(restored.stampers.events.lastSequence == live.stampers.events.lastSequence)
        #expect(restored.stampers.replies.lastSequence == live.stampers.replies.lastSequence)
        #expect(restored.malformed == live.malformed)
        #expect(restored.desk.checker.violations.isEmpty)

        // The server's replay frames nothing (only the stamps matter): it ends in the same place.
        let quick = freshCore(script.fixture)
        for entry in entries {
            var out = Outbox()
            out.replaying = true
            quick.apply(entry, into: &out)
            #expect(out.routed.isEmpty && out.published.isEmpty)
        }
        // The events it would publish again are the last ones stamped, in order.
        let events = quick.stampers.recentEvents.map(\.envelope.message)
        #expect(events.map(\.sequence) == Array(1...live.stampers.events.lastSequence))
        #expect(
            quick.stampers.events.lastSequence == live.stampers.events.lastSequence
                && events.count == Int(live.stampers.events.lastSequence))
        #expect(quick.stampers.replies.lastSequence == live.stampers.replies.lastSequence)
        #expect(quick.desk.snapshot() == live.desk.snapshot())

        // What follows (the pickup of r-2, r-3's offer answered, time passing) goes the same way on both.
        let next = script.afterwards()
        #expect(run(next, on: restored) == run(next, on: live))
        #expect(
            live.desk.checker.splitCount == 1 && restored.desk.checker.splitCount == 1,
            "the split agreed before the replay was made")
    }

    @Test(
        "After recovery, sessions say Hello again: old lines are unknown, the Welcome brings what was missed, a retried request is not done twice"
    )
    func recovery() throws {
        var script = ScriptedRide()
        let entries = script.entries()
        let core = freshCore(script.fixture)
        _ = run(entries, on: core)
        let bus = core.stampers.events.lastSequence
        var out = Outbox()
        core.apply(.recovered(time: 70), into: &out)
        #expect(out.routed.isEmpty && out.published.isEmpty)

        // The rider's process reconnected: a new ROUTER may give its old identity to anyone.
        let heartbeat = run([script.rider(.heartbeat(Heartbeat()), at: 71)], on: core)
        let refusal = try Frames.Routed(frames: try #require(heartbeat.first).frames).envelope
        #expect(refusal.error.code == .unknownSession)

        let newPeer: [UInt8] = [42]
        let hello = run(
            [
                script.rider(
                    DeskFixture.hello(.riders, "riders-1"), at: 72, peer: newPeer)
            ], on: core)
        let replies = try hello.map { try Frames.Routed(frames: $0.frames) }
        #expect(replies.allSatisfy { $0.peer == newPeer })
        #expect(replies.first?.envelope.welcome.sessionID == "riders-1")
        let resent = replies.dropFirst().map(\.envelope.tripUpdate)
        #expect(
            resent.contains { $0.requestID == "r-1" && $0.state == .onTrip },
            "each rider's last trip update follows the Welcome: \(resent)")

        // r-2's request again, as a retry after the crash (a new message id): received, not requested twice.
        let retried = run([script.rider(script.request("r-2", at: 73), at: 73, peer: newPeer)], on: core)
        let retry = try retried.map { try Frames.Routed(frames: $0.frames).envelope }
        #expect(retry.count == 1 && retry[0].requestReceived.requestID == "r-2")
        #expect(core.desk.requestCount == 3 && core.stampers.events.lastSequence == bus)
    }
}
