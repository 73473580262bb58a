import Randomness
import SimulatedTime
import Testing

@testable import VirtualTime

@Suite("A participant's inbox: what is due before a window's end, in one fixed order")
struct WindowInboxTests {
    private func input(_ ms: Int64, _ sender: String, _ sequence: UInt64, link: UInt64) -> TimedInput<String> {
        TimedInput(
            time: SimTime(wireMilliseconds: ms), sender: sender, sequence: sequence, link: link, payload: "\(sender)#\(link)")
    }

    @Test("Whatever the order of arrival, the due messages come by time, sender, sequence and link; the rest stay held")
    func fixedOrderWhateverTheArrival() {
        // Two senders' links, one with a duplicated message (sequence 2 twice, links 2 and 3).
        let inputs = [
            input(1_500, "b", 1, link: 1), input(1_000, "b", 2, link: 2), input(1_000, "a", 2, link: 2),
            input(1_000, "a", 2, link: 3), input(1_000, "a", 1, link: 1), input(2_500, "a", 3, link: 4),
            input(1_999, "b", 3, link: 3),
        ]
        let expected = ["a#1", "a#2", "a#3", "b#2", "b#1", "b#3"]
        var random = SeededGenerator(seed: 7)
        for _ in 0..<20 {
            var inbox = WindowInbox<String>()
            for input in inputs.shuffled(using: &random) { inbox.arrive(input) }
            #expect(inbox.next == SimTime(wireMilliseconds: 1_000))
            #expect(inbox.take(before: SimTime(wireMilliseconds: 2_000)).map(\.payload) == expected)
            #expect(inbox.count == 1 && inbox.next == SimTime(wireMilliseconds: 2_500))
            #expect(inbox.take(before: SimTime(wireMilliseconds: 2_000)).isEmpty)
            #expect(inbox.take(before: SimTime(wireMilliseconds: 3_000)).map(\.payload) == ["a#4"])
            #expect(inbox.next == nil && inbox.received == ["a": 4, "b": 3])
        }
    }

    @Test("Everything due: handed out in the same order whether it came in that order or not")
    func everythingDue() {
        let inOrder = [
            input(1_000, "a", 1, link: 1), input(1_000, "a", 2, link: 2), input(1_000, "b", 1, link: 1),
            input(1_200, "a", 3, link: 3), input(1_200, "b", 2, link: 2),
        ]
        var random = SeededGenerator(seed: 3)
        for arrival in [inOrder, inOrder.reversed()] + (0..<10).map({ _ in inOrder.shuffled(using: &random) }) {
            var inbox = WindowInbox<String>()
            for input in arrival { inbox.arrive(input) }
            #expect(inbox.take(before: SimTime(wireMilliseconds: 1_500)).map(\.payload) == inOrder.map(\.payload))
            #expect(inbox.count == 0 && inbox.handedOutTo == SimTime(wireMilliseconds: 1_500))
            // What arrives late now is handed out at once, as before.
            inbox.arrive(input(1_400, "b", 3, link: 3))
            #expect(inbox.late == 1 && inbox.take(before: SimTime(wireMilliseconds: 1_600)).map(\.payload) == ["b#3"])
        }
    }
}
