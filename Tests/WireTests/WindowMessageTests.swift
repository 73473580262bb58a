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

    @Test("An opening that ends before it starts is refused, not trusted")
    func malformedOpening() {
        var open = WindowOpen()
        open.startMs = 2_000
        open.endMs = 1_000
        #expect(open.opening == nil)
    }
}
