import Testing

@testable import Wire

@Suite("Sequence numbers")
struct SequenceTrackerTests {
    @Test("In order, gaps, duplicates and restarts are told apart")
    func observations() {
        var tracker = SequenceTracker()
        #expect(tracker.observe(sender: "d", sequence: 1) == .first)
        #expect(tracker.observe(sender: "d", sequence: 2) == .inOrder)
        #expect(tracker.observe(sender: "d", sequence: 6) == .gap(missing: 3...5))
        #expect(tracker.observe(sender: "d", sequence: 6) == .duplicate)
        #expect(tracker.observe(sender: "d", sequence: 4) == .duplicate)
        #expect(tracker.observe(sender: "e", sequence: 10) == .first)
        #expect(tracker.observe(sender: "e", sequence: 12) == .gap(missing: 11...11))
        #expect(tracker.observe(sender: "d", sequence: 1) == .restarted)
        #expect(tracker.totalMissed == 4)
        #expect(tracker.duplicates["d"] == 2)
    }

    @Test("A snapshot sets where a sender is followed from")
    func resumeAfterSnapshot() {
        var tracker = SequenceTracker()
        tracker.resume(sender: "dispatch", after: 500)
        #expect(tracker.observe(sender: "dispatch", sequence: 500) == .duplicate)
        #expect(tracker.observe(sender: "dispatch", sequence: 501) == .inOrder)
    }
}
