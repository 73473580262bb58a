import Testing

@testable import WebMonitor

@Suite("When pages get frames: at once after a quiet spell, otherwise one per gap")
struct FramePacerTests {
    @Test("A change after a quiet spell goes out at once; changes within the gap wait for one send at its end")
    func pacing() {
        var pacer = FramePacer(gap: .milliseconds(10))
        #expect(pacer.changed(at: .milliseconds(100)) == .sendNow)
        #expect(pacer.changed(at: .milliseconds(103)) == .sendAt(.milliseconds(110)))
        #expect(pacer.changed(at: .milliseconds(105)) == .none, "one send is due already")
        pacer.fired(at: .milliseconds(111))
        #expect(pacer.changed(at: .milliseconds(115)) == .sendAt(.milliseconds(121)), "the gap counts from the late send")
        pacer.fired(at: .milliseconds(121))
        #expect(pacer.changed(at: .milliseconds(200)) == .sendNow)
        #expect(pacer.changed(at: .milliseconds(210)) == .sendNow, "a whole gap later")
    }

    @Test("With no gap every change goes out at once")
    func noGap() {
        var pacer = FramePacer(gap: .zero)
        for time in [0, 0, 1, 1, 2] { #expect(pacer.changed(at: .milliseconds(time)) == .sendNow) }
    }
}
