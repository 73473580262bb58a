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
}
