import Synchronization
import TestSupport
import Testing

@Suite("The tests' hang guard")
struct HangGuardTests {
    @Test("A body that ignores cancellation times out at its guard while it still runs (the guard once waited for it to end)")
    func stuckBody() async throws {
        let state = Mutex((release: false, ended: false))
        let began = ContinuousClock.now
        await #expect(throws: TimedOut.self) {
            try await within(0.2) {
                // Stuck like a wait for a child process that never exits: deaf to cancellation. It
                // gives up by itself only after ten minutes, so that a guard that waits for it fails
                // this test instead of hanging the run.
                while !state.withLock({ $0.release }), ContinuousClock.now - began < .seconds(600) {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                state.withLock { $0.ended = true }
            }
        }
        #expect(!state.withLock { $0.ended }, "the guard gave up on the body before the body ended")
        state.withLock { $0.release = true }
    }

    @Test("A body that finishes in time gives its value; one that throws gives its error")
    func results() async throws {
        #expect(try await within(60) { 42 } == 42)
        struct Failed: Error {}
        await #expect(throws: Failed.self) { try await within(60) { () async throws -> Int in throw Failed() } }
    }
}
