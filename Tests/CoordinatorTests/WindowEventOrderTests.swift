import Randomness
import SimulatedTime
import Testing
import Wire

@testable import Coordinator

@Suite("Dispatch's events from the window link, in the recording's fixed order")
struct WindowEventOrderTests {
    @Test(
        "Taken encoded as they came, given out by simulated time, sender and sequence once a window opens after them; later ones wait, and what is not a dispatch event is refused"
    )
    func fixedOrder() {
        var stamper = SequenceStamper(sender: "dispatch-bus")
        let event = { (ms: Int64, stamper: inout SequenceStamper) in
            Envelope(.dispatchEvent(DispatchEvent()), from: stamper.next(), simTimeMs: ms)
        }
        let first = event(300, &stamper), second = event(100, &stamper), third = event(100, &stamper)
        let nextWindow = event(600, &stamper)
        var order = WindowEventOrder()
        order.add([first, nextWindow, second].map(WireCodec.encode))
        order.add(
            [
                WireCodec.encode(third), Array("not an envelope".utf8),
                WireCodec.encode(Envelope(.notice(Notice()), from: stamper.next(), simTimeMs: 50)),
            ])
        #expect(order.refused == 2)
        #expect(order.take(before: SimTime(wireMilliseconds: 500)) == [second, third, first])
        #expect(order.take(before: SimTime(wireMilliseconds: 500)).isEmpty, "each is given out once")
        #expect(order.take(before: nil) == [nextWindow], "the end gives out the rest")
    }

    @Test(
        "Handed over window by window or several windows at once (the keeper's coalesced hand-overs), the same events come out in the same order"
    )
    func boundsCoalesced() {
        // Three windows of 500 ms, events from two senders at random instants, each window's
        // events arriving in some order before the next window opens.
        var generator = SeededGenerator(seed: 19)
        var stampers = [SequenceStamper(sender: "dispatch-0-bus"), SequenceStamper(sender: "dispatch-1-bus")]
        var windows: [[[UInt8]]] = []
        for window in 0..<3 {
            var encoded: [[UInt8]] = []
            for _ in 0..<40 {
                let sender = Int.random(in: 0..<2, using: &generator)
                let ms = Int64(window * 500) + Int64.random(in: 0..<500, using: &generator)
                encoded.append(
                    WireCodec.encode(Envelope(.dispatchEvent(DispatchEvent()), from: stampers[sender].next(), simTimeMs: ms)))
            }
            windows.append(encoded.shuffled(using: &generator))
        }
        var eachWindow = WindowEventOrder()
        var oneByOne: [Envelope] = []
        for (index, encoded) in windows.enumerated() {
            eachWindow.add(encoded)
            oneByOne += eachWindow.take(before: SimTime(wireMilliseconds: Int64(index + 1) * 500))
        }
        var coalesced = WindowEventOrder()
        coalesced.add(windows[0])
        coalesced.add(windows[1])
        var atOnce = coalesced.take(before: SimTime(wireMilliseconds: 1000))
        coalesced.add(windows[2])
        atOnce += coalesced.take(before: SimTime(wireMilliseconds: 1500))
        #expect(oneByOne.count == 120)
        #expect(atOnce == oneByOne)
    }
}
