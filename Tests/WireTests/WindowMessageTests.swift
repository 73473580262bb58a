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
        #expect(try WindowDone(serializedBytes: try WindowDone(nothingOwn).serializedBytes() as [UInt8]).report.own == nil)
    }

    @Test(
        "A window's busy time survives the wire to the microsecond (it was rounded to whole milliseconds, and most windows take less)"
    )
    func busyUnderAMillisecond() throws {
        let report = WindowReport(window: 2, participant: ParticipantID("riders-0"), next: nil, busy: .microseconds(420))
        let done = try WindowDone(serializedBytes: try WindowDone(report).serializedBytes() as [UInt8])
        #expect(done.report.busy == .microseconds(420))
    }

    @Test("An opening that ends before it starts is refused, not trusted")
    func malformedOpening() {
        var open = WindowOpen()
        open.startMs = 2_000
        open.endMs = 1_000
        #expect(open.opening == nil)
    }

    @Test("Counts by name go out as a map's entries would, in the order of the names, and come back the same")
    func countsAsMapEntries() throws {
        var done = WindowDone()
        done.sent = NamedCount.entries(["b#1": 3, "a#1": 300])
        // Field 4, length-delimited, once per entry: key (field 1) then value (field 2), as
        // protobuf encodes a map<string, uint64>; "a#1" first.
        let a: [UInt8] = [0x0A, 0x03, 0x61, 0x23, 0x31, 0x10, 0xAC, 0x02]
        let b: [UInt8] = [0x0A, 0x03, 0x62, 0x23, 0x31, 0x10, 0x03]
        let inOrder: [UInt8] = [0x22, 0x08] + a + [0x22, 0x07] + b
        let bytes: [UInt8] = try done.serializedBytes()
        #expect(bytes == inOrder)
        let reversed: [UInt8] = [0x22, 0x07] + b + [0x22, 0x08] + a
        let decoded = try WindowDone(serializedBytes: reversed)
        #expect(NamedCount.counts(decoded.sent) == ["a#1": 300, "b#1": 3])
        #expect(
            NamedCount.counts(NamedCount.entries(["x": 1]) + NamedCount.entries(["x": 2])) == ["x": 2],
            "the last one for a name, as a map")
        let times = ["dispatch": SimTime(wireMilliseconds: 1_500), "riders-0": SimTime(wireMilliseconds: -20)]
        #expect(NamedTime.times(NamedTime.entries(times)) == times)
    }
}
