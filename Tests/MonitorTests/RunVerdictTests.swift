import Foundation
import Monitor
import Testing
import Wire

/// A recording made by hand: dispatch's bus events with contiguous sequence numbers.
struct Recording {
    var stamper = SequenceStamper(sender: "dispatch-bus")
    var statusStamper = SequenceStamper(sender: "dispatch-status")
    var envelopes: [Envelope] = []

    /// A recording whose dispatch reported its checks held (as a sound dispatch does every second).
    static func reported() -> Recording {
        var recording = Recording()
        recording.dispatchReport(DispatchChecks())
        return recording
    }

    /// Dispatch's health report with its own checks.
    mutating func dispatchReport(_ checks: DispatchChecks, malformed: UInt64 = 0) {
        let status = ProcessStatus.with {
            $0.processID = "dispatch"
            $0.malformed = malformed
            $0.checks = checks
        }
        envelopes.append(Envelope(.processStatus(status), from: statusStamper.next()))
    }

    mutating func add(_ kind: DispatchEventKind, request: String = "", driver: String = "", fare: Int64 = 0) {
        let event = Wire.DispatchEvent.with {
            $0.kind = kind
            $0.requestID = request
            $0.driverID = driver
            $0.fareCents = fare
        }
        envelopes.append(Envelope(.dispatchEvent(event), from: stamper.next(), simTimeMs: Int64(envelopes.count) * 1000))
    }

    /// A ride from request to completion with `driver`.
    mutating func ride(_ request: String, driver: String) {
        add(.requestCreated, request: request)
        add(.offerAccepted, request: request, driver: driver)
        add(.tripCompleted, request: request, driver: driver, fare: 1_200)
    }
}

@Suite("Verdict of a recorded run, and the recording itself")
struct RunVerdictTests {
    func row(_ verdict: RunVerdict, _ check: String) -> VerdictRow? { verdict.rows.first { $0.check == check } }

    @Test("A clean run passes every check")
    func cleanRun() {
        var recording = Recording.reported()
        recording.ride("r-1", driver: "d-1")
        recording.ride("r-2", driver: "d-1")
        let verdict = RunVerdict(recording: recording.envelopes, poolCapacity: 2)
        #expect(verdict.passed, "\(verdict.table)")
        #expect(verdict.table.hasPrefix("verdict: every check passed"))
    }

    @Test("Dispatch's own checks come from its last health report: absent, broken and held are each told apart")
    func dispatchChecks() {
        let check = "dispatch's own checks (fares conserved, no double booking)"
        var recording = Recording()
        recording.ride("r-1", driver: "d-1")
        let silent = RunVerdict(recording: recording.envelopes, poolCapacity: 1)
        #expect(row(silent, check)?.passed == false)
        #expect(row(silent, check)?.detail == "dispatch did not report its checks on the bus")

        recording.dispatchReport(DispatchChecks())
        #expect(
            row(RunVerdict(recording: recording.envelopes, poolCapacity: 1), check)
                == VerdictRow(check: check, passed: true, detail: "held"))

        recording.dispatchReport(
            DispatchChecks.with {
                $0.violations = 2
                $0.firstViolation = "t=12.0 s: request 3 ended twice"
            })
        let broken = RunVerdict(recording: recording.envelopes, poolCapacity: 1)
        #expect(!broken.passed)
        #expect(row(broken, check)?.detail == "2 broken, first: t=12.0 s: request 3 ended twice")

        recording.dispatchReport(DispatchChecks.with { $0.unexpectedRefusals = 1 })
        #expect(
            row(RunVerdict(recording: recording.envelopes, poolCapacity: 1), check)?.detail
                == "1 engine refusals dispatch did not expect")
    }

    @Test("A request that ends twice, one left open, a driver over capacity and a lost message are each named")
    func brokenRun() {
        var recording = Recording()
        recording.ride("r-1", driver: "d-1")
        recording.add(.requestCancelled, request: "r-1")
        recording.add(.requestCreated, request: "r-2")
        recording.add(.offerAccepted, request: "r-2", driver: "d-2")
        recording.add(.requestCreated, request: "r-3")
        recording.add(.offerAccepted, request: "r-3", driver: "d-2")
        recording.add(.requestCreated, request: "r-4")
        recording.add(.offerAccepted, request: "r-4", driver: "d-2")
        _ = recording.stamper.next()  // a message the recorder never got
        recording.add(.tripCompleted, request: "r-3", driver: "d-2", fare: 900)
        recording.add(.tripCompleted, request: "r-4", driver: "d-2", fare: 900)
        let verdict = RunVerdict(recording: recording.envelopes, poolCapacity: 2)
        #expect(!verdict.passed)
        #expect(row(verdict, "every request ended exactly once")?.detail == "r-1 ended 2 times: completed, cancelled")
        #expect(row(verdict, "no trip stuck")?.detail == "1 still open, first r-2")
        #expect(row(verdict, "no driver in more trips than seats")?.detail.hasPrefix("d-2 held r-2, r-3, r-4") == true)
        #expect(row(verdict, "bus sequence numbers contiguous")?.detail == "dispatch-bus lost 1")
        #expect(verdict.table.contains("FAIL  every request ended exactly once"))
    }

    @Test("A driver taken off a ride (offline, session expired) is free again; restarted senders are not gaps")
    func requeuedAndRestarted() {
        var recording = Recording.reported()
        recording.add(.requestCreated, request: "r-1")
        recording.add(.offerAccepted, request: "r-1", driver: "d-1")
        recording.add(.offerDeclined, request: "r-1", driver: "d-1")
        recording.add(.offerAccepted, request: "r-1", driver: "d-2")
        recording.add(.tripCompleted, request: "r-1", driver: "d-2", fare: 700)
        recording.ride("r-2", driver: "d-1")
        recording.ride("r-3", driver: "d-1")
        var restarted = SequenceStamper(sender: "drivers-0-status")
        for _ in 0..<3 { recording.envelopes.append(Envelope(.processStatus(ProcessStatus()), from: restarted.next())) }
        restarted = SequenceStamper(sender: "drivers-0-status")
        recording.envelopes.append(Envelope(.processStatus(ProcessStatus()), from: restarted.next()))
        let verdict = RunVerdict(recording: recording.envelopes, poolCapacity: 1)
        #expect(verdict.passed, "\(verdict.table)")
        #expect(row(verdict, "bus sequence numbers contiguous")?.detail.hasSuffix("restarts explained: 1") == true)
    }

    @Test("Malformed frames: all must be counted, except the last second's worth per kill of dispatch (they die unread with it)")
    func malformedAllowance() {
        var recording = Recording()
        recording.ride("r-1", driver: "d-1")
        var status = SequenceStamper(sender: "dispatch-status")
        recording.envelopes.append(
            Envelope(
                .processStatus(
                    ProcessStatus.with {
                        $0.processID = "dispatch"; $0.malformed = 99
                    }), from: status.next()))
        #expect(
            row(
                RunVerdict(recording: recording.envelopes, poolCapacity: 1, malformedSent: 100),
                "malformed input counted and survived")?.passed == false)
        let killed = RunVerdict(recording: recording.envelopes, poolCapacity: 1, malformedSent: 100, malformedMayBeLost: 50)
        #expect(row(killed, "malformed input counted and survived")?.passed == true)
        #expect(row(killed, "malformed input counted and survived")?.detail.contains("up to 50 may die unread") == true)
    }

    @Test("Events a restored dispatch publishes again are counted once: no request ends twice")
    func republishedEvents() {
        var recording = Recording.reported()
        recording.ride("r-1", driver: "d-1")
        recording.ride("r-2", driver: "d-1")
        // Dispatch came back from its journal and published its last events again (never its first).
        recording.envelopes += recording.envelopes.suffix(4)
        recording.ride("r-3", driver: "d-1")
        let verdict = RunVerdict(recording: recording.envelopes, poolCapacity: 1)
        #expect(verdict.passed, "\(verdict.table)")
        #expect(row(verdict, "every request ended exactly once")?.detail == "3 requests, each ended once")
    }

    @Test("The recording reads back as written; a record cut short by a crash ends it; garbage is an error naming the byte")
    func eventLogRoundTrip() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).pb").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var recording = Recording()
        recording.ride("r-1", driver: "d-1")
        let writer = try EventLog.Writer(path: path)
        await writer.append(recording.envelopes)
        await writer.close()
        let (read, truncated) = try EventLog.read(path: path)
        #expect(
            read
                == recording.envelopes.map {
                    var envelope = $0; envelope.protocolVersion = WireCodec.protocolVersion; return envelope
                })
        #expect(!truncated)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([40, 0, 0, 0, 1, 2]))
        try handle.close()
        let (again, cut) = try EventLog.read(path: path)
        #expect(again.count == 3 && cut)
        try Data([3, 0, 0, 0, 0xFF, 0xFF, 0xFF]).write(to: URL(fileURLWithPath: path))
        #expect(throws: EventLog.ReadError.self) { try EventLog.read(path: path) }
        do {
            _ = try EventLog.read(path: path)
        } catch {
            #expect("\(error)".contains("at byte 0"))
        }
    }
}

@Suite("The verdict across dispatch shards: a request handed over ends once, at the shard that has it last")
struct ShardVerdictTests {
    func row(_ verdict: RunVerdict, _ check: String) -> VerdictRow? { verdict.rows.first { $0.check == check } }

    /// Two shards, each a sender of its own: `first` hands `r-1` over to `second`, which completes it.
    func handedOver(endAtBoth: Bool = false, arrives: Bool = true) -> [Envelope] {
        var first = Recording.reported()
        var second = Recording()
        second.stamper = SequenceStamper(sender: "dispatch-1-bus")
        first.add(.requestCreated, request: "r-1")
        first.add(.requestHandedOver, request: "r-1")
        if arrives { second.ride("r-1", driver: "d-7") }
        if endAtBoth { first.add(.requestCancelled, request: "r-1") }
        first.ride("r-2", driver: "d-1")
        return first.envelopes + second.envelopes
    }

    @Test("Created at one shard, handed over, created again and completed at the other: every check passes")
    func across() {
        let verdict = RunVerdict(recording: handedOver(), poolCapacity: 2)
        #expect(verdict.passed, "\(verdict.table)")
        #expect(row(verdict, "every request ended exactly once")?.detail == "2 requests, each ended once")
    }

    @Test("Lost on its way: it stays open; ended at both shards: it ended twice")
    func lostOrTwice() {
        let lost = RunVerdict(recording: handedOver(arrives: false), poolCapacity: 2)
        #expect(row(lost, "no trip stuck")?.passed == false)
        #expect(row(lost, "no trip stuck")?.detail == "1 still open, first r-1")
        let twice = RunVerdict(recording: handedOver(endAtBoth: true), poolCapacity: 2)
        #expect(row(twice, "every request ended exactly once")?.passed == false)
    }
}
