import SimulatedTime
import Testing
import VirtualTime

private func ms(_ value: Int64) -> SimTime { SimTime(wireMilliseconds: value) }

@Suite("Virtual time: a participant's side, message by message")
struct WindowParticipantTests {
    @Test("A report's next event counts what the window expected, never what happened to arrive early from the window being done")
    func reportIgnoresEarlyArrivals() {
        var participant = WindowParticipant<String>(id: ParticipantID("dispatch"), latency: SimDuration(wireMilliseconds: 500))
        // Window 2 expects one message from riders-1 (sent in window 1, due at 900 ms).
        let opening = WindowOpening(
            window: Window(index: 2, start: ms(500), end: ms(1_000)), expected: ["dispatch": ["riders-1#1": 1]],
            incarnations: ["dispatch": 1, "riders-1": 1])
        #expect(participant.opened(opening) == .wait)
        let step = participant.arrived("early quote", sentAt: ms(400), from: "riders-1#1", sequence: 1, link: 1)
        #expect(step == .work(opening))
        #expect(participant.inputs().map(\.payload) == ["early quote"])
        // Sent by riders-1 during window 2 (due at 1,200 ms), in before dispatch reports: its
        // sender's report names it; dispatch's must say the same whether it came in time or not.
        let late = participant.arrived("next quote", sentAt: ms(700), from: "riders-1#1", sequence: 2, link: 2)
        #expect(late == .wait)
        let withEarly = participant.finish(nextTimer: ms(3_000))
        #expect(withEarly?.next == ms(3_000))
        #expect(withEarly?.received == ["riders-1#1": 2])

        var without = WindowParticipant<String>(id: ParticipantID("dispatch"), latency: SimDuration(wireMilliseconds: 500))
        _ = without.opened(opening)
        _ = without.arrived("early quote", sentAt: ms(400), from: "riders-1#1", sequence: 1, link: 1)
        _ = without.inputs()
        #expect(without.finish(nextTimer: ms(3_000))?.next == withEarly?.next)

        // In the next window the message is expected, and held until its time: it counts then.
        let third = WindowOpening(
            window: Window(index: 3, start: ms(1_000), end: ms(1_500)), expected: ["dispatch": ["riders-1#1": 2]],
            incarnations: ["dispatch": 1, "riders-1": 1])
        guard case .work = participant.opened(third) else {
            Issue.record("window 3 did not start")
            return
        }
        #expect(participant.inputs().map(\.payload) == ["next quote"])
    }
}
