import Synchronization
import TestSupport
import Testing

@Suite("The tests' hang guard")
struct HangGuardTests {
    /// Whether the stuck body may stop, and whether it has.
    final class Flags: Sendable {
        let release = Atomic(false)
        let ended = Atomic(false)
    }

    @Test("A body that ignores cancellation times out at its guard while it still runs (the guard once waited for it to end)")
    func stuckBody() async throws {
        // Atomics, not a Mutex: ThreadSanitizer does not see Synchronization.Mutex's futex as a
        // lock, and reported the body's write and the test's read as a race.
        let state = Flags()
        let began = ContinuousClock.now
        await #expect(throws: TimedOut.self) {
            try await within(0.2) {
                // Stuck like a wait for a child process that never exits: deaf to cancellation. It
                // gives up by itself only after ten minutes, so that a guard that waits for it fails
                // this test instead of hanging the run.
                while !state.release.load(ordering: .acquiring), ContinuousClock.now - began < .seconds(600) {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                state.ended.store(true, ordering: .releasing)
            }
        }
        let ended = state.ended.load(ordering: .acquiring)
        #expect(!ended, "the guard gave up on the body before the body ended")
        state.release.store(true, ordering: .releasing)
    }

    @Test("A body that finishes in time gives its value; one that throws gives its error")
    func results() async throws {
        #expect(try await within(60) { 42 } == 42)
        struct Failed: Error {}
        await #expect(throws: Failed.self) { try await within(60) { () async throws -> Int in throw Failed() } }
    }
}
