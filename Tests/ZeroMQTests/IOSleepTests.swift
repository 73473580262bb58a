import Foundation
import TestSupport
import Testing

@testable import ZeroMQ

/// Sleeping on the I/O thread's clock (`IOExecutor.sleep(until:)`).
@Suite("Sleeps timed by the I/O thread: never early, in deadline order, cancelled at once, still sleeping after shutdown")
struct IOSleepTests {
    /// Where sleepers woke, in order.
    actor Wakes {
        private(set) var order: [Int] = []
        private(set) var threads: Set<String> = []
        func woke(_ index: Int) {
            order.append(index)
            threads.insert(currentThreadName())
        }
    }

    @Test("Sleepers wake no earlier than their deadlines, earliest first, on the I/O thread")
    func wakeInOrder() async throws {
        try await within(20) {
            let transport = try Transport(name: "sleep-order")
            let start = ContinuousClock.now
            let wakes = Wakes()
            // Deadlines given out of order; each sleeper checks it was not woken early.
            let offsets = [120, 40, 80, 0, 160, 40]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, offset) in offsets.enumerated() {
                    group.addTask(executorPreference: transport.executor) {
                        let deadline = start + .milliseconds(offset)
                        try await transport.executor.sleep(until: deadline)
                        #expect(ContinuousClock.now >= deadline, "sleeper \(index) woke before its deadline")
                        await wakes.woke(index)
                    }
                }
                try await group.waitForAll()
            }
            let order = await wakes.order
            let deadlines = order.map { offsets[$0] }
            #expect(deadlines == deadlines.sorted(), "woken out of deadline order: \(order)")
            #expect(Set(order) == Set(offsets.indices))
            #expect(await wakes.threads == ["sleep-order"])
            await transport.shutdown()
        }
    }

    @Test("A cancelled sleep ends at once with CancellationError, before or while it waits; others sleep on")
    func cancellation() async throws {
        try await within(20) {
            let transport = try Transport(name: "sleep-cancel")
            let long = Task(executorPreference: transport.executor) {
                try await transport.executor.sleep(for: .seconds(3_600))
            }
            let short = Task(executorPreference: transport.executor) {
                try await transport.executor.sleep(for: .milliseconds(50))
            }
            long.cancel()
            await #expect(throws: CancellationError.self) { try await long.value }
            try await short.value
            let already = Task(executorPreference: transport.executor) {
                withUnsafeCurrentTask { $0?.cancel() }
                try await transport.executor.sleep(for: .seconds(3_600))
            }
            await #expect(throws: CancellationError.self) { try await already.value }
            await transport.shutdown()
        }
    }

    @Test("A sleep waiting when the transport shuts down, and one begun after, still last until their deadlines")
    func shutdown() async throws {
        try await within(20) {
            let transport = try Transport(name: "sleep-down")
            let deadline = ContinuousClock.now + .milliseconds(300)
            let waiting = Task(executorPreference: transport.executor) {
                try await transport.executor.sleep(until: deadline)
                return ContinuousClock.now
            }
            try await Task.sleep(for: .milliseconds(20))
            await transport.shutdown()
            #expect(try await waiting.value >= deadline)
            let after = ContinuousClock.now + .milliseconds(50)
            try await transport.executor.sleep(until: after)
            #expect(ContinuousClock.now >= after)
        }
    }
}
