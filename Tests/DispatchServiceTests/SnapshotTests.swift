import Foundation
import RideDispatch
import Testing
import Wire

@testable import DispatchService

@Suite("Dispatch's snapshots: restored, then the journal's rest replayed, dispatch is what a whole replay makes")
struct SnapshotTests {
    /// What follows the scripted ride, then dispatch coming back and the sessions saying Hello again.
    func next(_ script: inout ScriptedRide) -> [JournalEntry] {
        script.afterwards() + [
            // Dispatch came back: the sessions say Hello again on new lines and retry.
            .recovered(time: 401),
            script.rider(.heartbeat(Heartbeat()), at: 402),
            script.rider(DeskFixture.hello(.riders, "riders-1"), at: 403, peer: [42]),
            script.driver(DeskFixture.hello(.drivers, "drivers-1"), at: 403, peer: [43]),
            script.rider(script.request("r-4", at: 404), at: 404, peer: [42]),
            .tick(time: 405),
            script.driver(
                .acceptOffer(
                    AcceptOffer.with {
                        $0.offerID = "offer-4"; $0.driverID = "d-2"
                    }), at: 406, peer: [43]),
            .tick(time: 500),
        ]
    }

    @Test("A snapshot taken after any entry, through its bytes, continues exactly as the core it was taken from")
    func anyCutPoint() throws {
        var script = ScriptedRide()
        let entries = script.entries() + next(&script)
        for cut in 0...entries.count {
            let original = freshCore(script.fixture)
            _ = run(Array(entries[..<cut]), on: original)
            let taken = original.snapshot(journalOrigin: 1, journalEntries: cut, journalBytes: 0, time: 0)
            let bytes = try CompactEncoder.encode(taken)
            let restored = freshCore(script.fixture)
            restored.restore(try CompactDecoder.decode(DispatchSnapshot.self, from: bytes[...]))

            #expect(restored.desk.snapshot() == original.desk.snapshot(), "cut after \(cut) entries")
            let rest = Array(entries[cut...])
            #expect(run(rest, on: restored) == run(rest, on: original), "cut after \(cut) entries")
            #expect(restored.stampers.events.lastSequence == original.stampers.events.lastSequence)
            #expect(restored.stampers.replies.lastSequence == original.stampers.replies.lastSequence)
            #expect(restored.malformed == original.malformed)
            #expect(restored.desk.checker.splitCount == original.desk.checker.splitCount)
            #expect(restored.desk.checker.violations.isEmpty && original.desk.checker.violations.isEmpty)
            #expect(
                restored.stampers.recentEvents.map(\.envelope.message) == original.stampers.recentEvents.map(\.envelope.message))
        }
    }

    @Test("A whole run's state survives: requests, drivers, sessions, offers, remembered replies and totals")
    func everyPartKept() throws {
        var script = ScriptedRide()
        let core = freshCore(script.fixture)
        _ = run(script.entries(), on: core)
        let bytes = try CompactEncoder.encode(core.snapshot(journalOrigin: 1, journalEntries: 1, journalBytes: 4, time: 61))
        let back = try CompactDecoder.decode(DispatchSnapshot.self, from: bytes[...])
        #expect(back.requestCount == 3 && back.time == 61)
        #expect(back.desk.sessions.count == 2 && back.desk.engine.requestCount == 3)
        #expect(back.stampers.eventsByKind == core.stampers.eventsByKind && !back.stampers.eventsByKind.isEmpty)
        #expect(back.malformed.total == 1)
        #expect(back.desk.driverLines.values.contains { $0.lastLeg != nil })
        #expect(back.desk.riderLines.values.contains { $0.lastUpdate != nil })
    }
}

@Suite("Snapshot files: written whole or not at all, a damaged one passed over for the one before")
struct SnapshotStoreTests {
    let directory = NSTemporaryDirectory() + "snapshots-\(UInt64.random(in: 0...UInt64.max))"

    /// A journal of the scripted ride and the snapshots of its core after `cuts` entries.
    func journalWithSnapshots(
        cuts: [Int], process: String = "dispatch"
    ) throws -> (contents: DispatchJournal.Contents, store: SnapshotStore) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/\(process).journal"
        var script = ScriptedRide()
        let entries = script.entries()
        let journal = try DispatchJournal(path: path)
        let store = SnapshotStore(journalPath: path)
        let core = freshCore(script.fixture, process: process)
        for (index, entry) in entries.enumerated() {
            var out = Outbox()
            try journal.append([core.apply(entry, into: &out)])
            if cuts.contains(index + 1) {
                try store.write(
                    core.snapshot(
                        journalOrigin: 1_700_000_000_000, journalEntries: journal.count, journalBytes: journal.size,
                        time: entry.time ?? 0))
            }
        }
        return (try DispatchJournal.read(path: path), store)
    }

    @Test("The newest of the two kept is used; older ones are removed")
    func newestKept() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (contents, store) = try journalWithSnapshots(cuts: [3, 6, 9])
        #expect(store.files().map(\.entries) == [9, 6])
        let newest = store.newest(for: contents)
        #expect(newest.found?.snapshot.journalEntries == 9 && newest.skipped.isEmpty)
    }

    /// The bug this catches: `bench recovery` replayed a shard's journal into cores named
    /// "dispatch", whose stamps differ from the snapshot's "dispatch-1", and said a restart from
    /// the snapshot was not identical to the whole journal replayed when it was.
    @Test(
        "bench recovery measures a shard's journal with the shard's own senders: identical both ways, and says what differs when not"
    )
    func recoveryBenchmarkOfAShard() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (contents, _) = try journalWithSnapshots(cuts: [5], process: "dispatch-1")
        let fixture = ScriptedRide().fixture
        let path = directory + "/dispatch-1.journal"
        let report = try RecoveryBenchmark.measure(journal: path, process: "dispatch-1") { freshCore(fixture).desk }
        #expect(report.snapshotEntries == 5 && report.entries == contents.count && report.tailEntries == contents.count - 5)
        #expect(report.tailMessages > 0)
        #expect(report.identical, "\(report.differences)")
        let misnamed = try RecoveryBenchmark.measure(journal: path) { freshCore(fixture).desk }
        #expect(!misnamed.identical)
        #expect(misnamed.differences.contains { $0.hasPrefix("messages:") }, "\(misnamed.differences)")
    }

    @Test("A torn, corrupted, foreign or newer-than-the-journal snapshot is passed over, saying why")
    func damagedFallsBack() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (contents, store) = try journalWithSnapshots(cuts: [5, 10])
        let newest = try #require(store.files().first)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: newest.path)))

        // Torn: the file ends early.
        try Data(bytes.dropLast(7)).write(to: URL(fileURLWithPath: newest.path))
        var found = store.newest(for: contents)
        #expect(found.found?.snapshot.journalEntries == 5)
        #expect(found.skipped.first?.reason.contains("torn") == true)

        // One byte of the payload flipped.
        bytes[bytes.count / 2] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: newest.path))
        found = store.newest(for: contents)
        #expect(found.found?.snapshot.journalEntries == 5)
        #expect(found.skipped.first?.reason.contains("checksum") == true)

        // Another format.
        bytes[bytes.count / 2] ^= 0x40
        bytes[4] = 99
        try Data(bytes).write(to: URL(fileURLWithPath: newest.path))
        found = store.newest(for: contents)
        #expect(found.skipped.first?.reason.contains("format 99") == true)

        // A journal cut back before the snapshots (or another run's): none applies.
        let earlier = try DispatchJournal.parse(
            Array(contents.bytes[0..<contents.offsets(upTo: 3)]), file: "cut")
        found = store.newest(for: earlier)
        #expect(found.found == nil && found.skipped.count == 2)
        #expect(found.skipped.last?.reason.contains("journal holds 3") == true)
    }
}

extension DispatchJournal.Contents {
    /// The byte offset after the first `count` entries.
    func offsets(upTo count: Int) -> Int {
        var offset = DispatchJournal.magic.count
        for _ in 0..<count { offset += 4 + DispatchJournal.length(at: offset, in: bytes) }
        return offset
    }
}

@Suite("A snapshot holds every stored property that is state")
struct SnapshotCoverageTests {
    /// The names of a value's stored properties.
    func stored(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }

    @Test("The engine's, the desk's and the core's stored properties are each in their snapshot or declared not state")
    func nothingForgotten() throws {
        let script = ScriptedRide()
        let core = freshCore(script.fixture)
        let snapshot = core.snapshot(journalOrigin: 0, journalEntries: 0, journalBytes: 0, time: 0)
        #expect(stored(core.desk.engine).subtracting(DispatchEngine.notState) == stored(snapshot.desk.engine))
        #expect(stored(core.desk).subtracting(DispatchDesk.notState) == stored(snapshot.desk))
        #expect(stored(core).subtracting(DispatchCore.notState) == ["stampers", "malformed"])
        #expect(stored(snapshot).isSuperset(of: ["stampers", "malformed", "desk"]))
        #expect(stored(core.desk.checker) == stored(snapshot.desk.checker).union(["poolCapacity"]))
        #expect(stored(core.desk.odometers) == stored(snapshot.desk.odometers).union(["graph"]))
    }
}

@Suite("How often dispatch snapshots")
struct SnapshotPolicyTests {
    @Test("At least the minimum gap apart, and far enough apart that encoding takes at most its share of a core")
    func gapGrowsWithTheEncoding() {
        let policy = SnapshotPolicy(everyEntries: 5_000, minimumGap: .seconds(1), cpuShare: 0.1)
        #expect(policy.gap(after: 0) == .seconds(1))
        #expect(policy.gap(after: 0.05) == .seconds(1))
        #expect(policy.gap(after: 0.25) == .milliseconds(2_500))
    }
}
