import SimulatedTime
import Testing
import VirtualTime
import Wire

@Suite("Virtual time on the wire")
struct WindowMessageTests {
    @Test("A window opening and a report cross the wire and come back the same")
    func roundTrip() throws {
        let opening = WindowOpening(
            window: Window(index: 7, start: SimTime(wireMilliseconds: 1_500), end: SimTime(wireMilliseconds: 2_000)),
            purpose: .drain, expected: ["dispatch": ["riders-0#1": 12], "riders-0": ["dispatch#2": 3]],
            incarnations: ["dispatch": 2, "riders-0": 1])
        let open = try WindowOpen(serializedBytes: try WindowOpen(opening).serializedBytes() as [UInt8])
        #expect(open.opening == opening)
        let report = WindowReport(
            window: 7, participant: ParticipantID("riders-0"), sent: ["dispatch#2": 4], received: ["dispatch#2": 3],
            next: SimTime(wireMilliseconds: 2_250), busy: .milliseconds(12), late: 2)
        let done = try WindowDone(serializedBytes: try WindowDone(report).serializedBytes() as [UInt8])
        #expect(done.report == report)
        let idle = WindowReport(window: 8, participant: ParticipantID("drivers-1", incarnation: 3), next: nil)
        #expect(WindowDone(idle).report == idle, "nothing to do stays nothing to do")
        let last = WindowReport(window: 9, participant: ParticipantID("riders-0"), next: nil, leaving: true)
        let lastDone = try WindowDone(serializedBytes: try WindowDone(last).serializedBytes() as [UInt8])
        #expect(lastDone.report == last, "a last report stays the last")
    }

    @Test("Each participant is sent only its own expectations (the others' would cost it a decode), with every life")
    func openingForOneParticipant() throws {
        let opening = WindowOpening(
            window: Window(index: 3, start: SimTime(wireMilliseconds: 500), end: SimTime(wireMilliseconds: 1_000)),
            expected: ["dispatch": ["riders-0#1": 12, "drivers-0#1": 40], "riders-0": ["dispatch#1": 3]],
            incarnations: ["dispatch": 1, "riders-0": 1, "drivers-0": 1])
        let forRider = try #require(
            try WindowOpen(serializedBytes: try WindowOpen(opening, for: "riders-0").serializedBytes() as [UInt8]).opening)
        #expect(forRider.expected == ["riders-0": ["dispatch#1": 3]])
        #expect(forRider.expectations(of: "riders-0") == opening.expectations(of: "riders-0"))
        #expect(forRider.incarnations == opening.incarnations, "every life, for addressing")
        #expect(forRider.window == opening.window)
        let forDrivers = try #require(WindowOpen(opening, for: "drivers-0").opening)
        #expect(forDrivers.expected.isEmpty, "expecting nothing is an empty expectation, not another's")
        #expect(forDrivers.expectations(of: "drivers-0").isEmpty)
    }

    @Test("A hello names the life that says it; a report survives the wire")
    func helloAndReport() throws {
        let hello = try WindowHello(
            serializedBytes: try WindowHello(ParticipantID("dispatch-1", incarnation: 4)).serializedBytes() as [UInt8])
        #expect(hello.participant == ParticipantID("dispatch-1", incarnation: 4))
        let report = WindowReport(window: 5, participant: ParticipantID("dispatch"), next: SimTime(wireMilliseconds: 9_000))
        let done = try WindowDone(serializedBytes: try WindowDone(report).serializedBytes() as [UInt8])
        #expect(done.report == report)
        let sender = WindowReport(
            window: 6, participant: ParticipantID("riders-0"), next: SimTime(wireMilliseconds: 6_500),
            deliveries: ["dispatch": SimTime(wireMilliseconds: 6_500)], own: SimTime(wireMilliseconds: 9_000))
        let back = try WindowDone(serializedBytes: try WindowDone(sender).serializedBytes() as [UInt8]).report
        #expect(back == sender, "the deliveries by receiver and its own next survive the wire")
        let nothingOwn = WindowReport(
            window: 7, participant: ParticipantID("riders-0"), next: SimTime(wireMilliseconds: 7_500),
            deliveries: ["dispatch": SimTime(wireMilliseconds: 7_500)], own: nil)
        #expect(try WindowDone(serializedBytes: try WindowDone(nothingOwn).serializedBytes() as [UInt8]).report?.own == nil)
    }

    @Test(
        "A window's busy time survives the wire to the microsecond (it was rounded to whole milliseconds, and most windows take less)"
    )
    func busyUnderAMillisecond() throws {
        let report = WindowReport(window: 2, participant: ParticipantID("riders-0"), next: nil, busy: .microseconds(420))
        let done = try WindowDone(serializedBytes: try WindowDone(report).serializedBytes() as [UInt8])
        #expect(done.report?.busy == .microseconds(420))
    }

    @Test("An opening that ends before it starts is refused, not trusted")
    func malformedOpening() {
        var open = WindowOpen()
        open.startMs = 2_000
        open.endMs = 1_000
        #expect(open.opening == nil)
    }

    @Test("Counts and times by name go out as two lists in the order of the names, and come back the same")
    func countsAsParallelLists() throws {
        let report = WindowReport(
            window: 4, participant: ParticipantID("dispatch"), sent: ["riders-0#1": 3, "drivers-0#1": 300],
            received: ["riders-0#1": 7, "drivers-0#2": 1], next: SimTime(wireMilliseconds: 2_500),
            deliveries: ["riders-0": SimTime(wireMilliseconds: 2_500), "drivers-0": SimTime(wireMilliseconds: -20)])
        let done = WindowDone(report)
        #expect(done.sentTo == ["drivers-0#1", "riders-0#1"] && done.sentCounts == [300, 3])
        #expect(done.receivedFrom == ["drivers-0#2", "riders-0#1"] && done.receivedCounts == [1, 7])
        #expect(done.deliveriesTo == ["drivers-0", "riders-0"] && done.deliveryMs == [-20, 2_500])
        let bytes: [UInt8] = try done.serializedBytes()
        #expect(try WindowDone(serializedBytes: bytes).report == report)
        #expect(bytes == (try WindowDone(report).serializedBytes() as [UInt8]), "the same values make the same bytes")
        var reversed = done
        reversed.sentTo.reverse()
        reversed.sentCounts.reverse()
        #expect(reversed.report?.sent == report.sent, "read in any order")
        var twice = done
        twice.sentTo = ["a#1", "a#1"]
        twice.sentCounts = [1, 2]
        #expect(twice.report?.sent == ["a#1": 2], "the last one for a name given twice, as a map")
        let opening = WindowOpening(
            window: Window(index: 3, start: SimTime(wireMilliseconds: 500), end: SimTime(wireMilliseconds: 1_000)),
            expected: ["dispatch": ["riders-0#1": 12, "drivers-0#1": 40], "riders-0": ["dispatch#1": 3]],
            incarnations: ["riders-0": 1, "dispatch": 2])
        let open = WindowOpen(opening)
        #expect(open.expectedReceivers == ["dispatch", "dispatch", "riders-0"])
        #expect(open.expectedSenders == ["drivers-0#1", "riders-0#1", "dispatch#1"] && open.expectedCounts == [40, 12, 3])
        #expect(open.lifeNames == ["dispatch", "riders-0"] && open.lifeNumbers == [2, 1])
        #expect(
            WindowOpen.each(opening, for: ["riders-0", "dispatch"]) == [
                WindowOpen(opening, for: "riders-0"), WindowOpen(opening, for: "dispatch"),
            ])
    }

    @Test(
        "Lives left out of an opening are those of the last opening that had them; an opening with lives as before and lives both is malformed"
    )
    func livesAsBefore() throws {
        let window = { (index: UInt64) in
            Window(
                index: index, start: SimTime(wireMilliseconds: Int64(index) * 500),
                end: SimTime(wireMilliseconds: Int64(index + 1) * 500))
        }
        let first = WindowOpening(window: window(1), incarnations: ["dispatch": 1, "riders-0": 1])
        let second = WindowOpening(window: window(2), incarnations: ["dispatch": 1, "riders-0": 1])
        let restarted = WindowOpening(window: window(3), incarnations: ["dispatch": 2, "riders-0": 1])
        let sent = [
            WindowOpen.each(first, for: ["riders-0"]), WindowOpen.each(second, for: ["riders-0"]) { _ in false },
            WindowOpen.each(restarted, for: ["riders-0"]),
        ].map { $0[0] }
        #expect(sent.map(\.livesAsBefore) == [false, true, false] && sent[1].lifeNames.isEmpty)
        var reader = WindowOpenReader()
        let read = try sent.map { open in
            var stamper = SequenceStamper(sender: "coordinator-window")
            let frames = Frames.Published(topic: Topic.windowOpen, envelope: Envelope(.windowOpen(open), from: stamper.next()))
                .frames
            let opening = reader.opening(from: frames)
            return try #require(opening)
        }
        #expect(read == [first, second, restarted])
        var both = sent[1]
        both.lifeNames = ["dispatch"]
        both.lifeNumbers = [1]
        #expect(both.opening == nil)
    }

    @Test("Lists that do not pair up make a report or an opening malformed, not half read")
    func unpairedLists() {
        let report = WindowReport(
            window: 4, participant: ParticipantID("riders-0"), sent: ["dispatch#1": 3], received: ["dispatch#1": 2],
            next: nil, deliveries: ["dispatch": SimTime(wireMilliseconds: 2_500)])
        /// `value` with one of its lists broken by `change`.
        func broken<T>(_ value: T, _ change: (inout T) -> Void) -> T {
            var copy = value
            change(&copy)
            return copy
        }
        let done = WindowDone(report)
        let sent = broken(done) { $0.sentCounts.append(9) }
        let received = broken(done) { $0.receivedFrom.append("drivers-0#1") }
        let deliveries = broken(done) { $0.deliveryMs = [] }
        for done in [sent, received, deliveries] { #expect(done.report == nil) }
        #expect(WindowDone(report).report == report)
        let opening = WindowOpening(
            window: Window(index: 3, start: SimTime(wireMilliseconds: 500), end: SimTime(wireMilliseconds: 1_000)),
            expected: ["riders-0": ["dispatch#1": 3]], incarnations: ["dispatch": 1, "riders-0": 1])
        let open = WindowOpen(opening)
        let lives = broken(open) { $0.lifeNumbers.removeLast() }
        let senders = broken(open) { $0.expectedSenders.append("drivers-0#1") }
        let counts = broken(open) { $0.expectedCounts = [] }
        for open in [lives, senders, counts] { #expect(open.opening == nil) }
        #expect(WindowOpen(opening).opening == opening)
    }
}
