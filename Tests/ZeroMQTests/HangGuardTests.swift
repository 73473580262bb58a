import Synchronization
import TestSupport
import Testing

@Suite("The tests' hang guard")
struct HangGuardTests {
    @Test("A body that ignores cancellation times out at its guard instead of holding up the run (it once waited for it)")
    func stuckBody() async throws {
        let release = Mutex(false)
        let started = ContinuousClock.now
        await #expect(throws: TimedOut.self) {
            try await within(0.2) {
                // Stuck like a wait for a child process that never exits: deaf to cancellation.
                while !release.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
            }
        }
        #expect(ContinuousClock.now - started < .seconds(60), "the guard returned; the body is still running")
        release.withLock { $0 = true }
    }

    @Test("A body that finishes in time gives its value; one that throws gives its error")
    func results() async throws {
        #expect(try await within(60) { 42 } == 42)
        struct Failed: Error {}
        await #expect(throws: Failed.self) { try await within(60) { () async throws -> Int in throw Failed() } }
    }
}
