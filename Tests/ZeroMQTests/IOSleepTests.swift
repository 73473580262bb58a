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

    @Test(
        "The timers' book: a sleep cancelled before it waits ends at once, a cancelled one's deadline is passed over, due ones come out earliest first, none waits after stop"
    )
    func book() async throws {
        let start = ContinuousClock.now
        var timers = IOTimers()
        // Cancelled between taking its id and waiting: the wait is refused as cancelled.
        let early = timers.reserve()
        #expect(timers.cancel(early) == nil, "nobody waits yet")
        let placement = try await withCheckedThrowingContinuation { (waiter: IOTimers.Waiter) in
            waiter.resume(returning: timers.wait(early, until: start, waiter) == .waiting)
        }
        #expect(placement == false, "a sleep cancelled before it waited was placed")

        // Three waiting sleepers; the middle one is cancelled; the others come out earliest first.
        let results = await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            var ids: [Int: UInt64] = [:]
            var cancelled: IOTimers.Waiter?
            let (placed, placing) = AsyncStream.makeStream(of: (Int, UInt64, IOTimers.Waiter).self)
            for (index, offset) in [30, 10, 20].enumerated() {
                group.addTask {
                    let woke = try await withCheckedThrowingContinuation { (waiter: IOTimers.Waiter) in
                        placing.yield((index, UInt64(offset), waiter))
                    }
                    return (index, woke)
                }
            }
            var waiting = 0
            for await (index, offset, waiter) in placed {
                let id = timers.reserve()
                ids[index] = id
                #expect(timers.wait(id, until: start + .milliseconds(Int64(offset)), waiter) == .waiting)
                waiting += 1
                if waiting == 3 { break }
            }
            cancelled = timers.cancel(ids[2]!)
            #expect(cancelled != nil, "a waiting sleeper is handed back when cancelled")
            cancelled?.resume(throwing: CancellationError())
            #expect(timers.earliest() == start + .milliseconds(10))
            #expect(timers.takeDue(now: start + .milliseconds(5)).isEmpty)
            let due = timers.takeDue(now: start + .milliseconds(30))
            #expect(due.count == 2, "the cancelled sleeper's deadline is passed over")
            for waiter in due { waiter.resume(returning: true) }
            #expect(timers.earliest() == nil)
            var results: [Int: Bool] = [:]
            while let next = await group.nextResult() {
                if case .success(let (index, woke)) = next { results[index] = woke }
            }
            return results
        }
        #expect(results == [0: true, 1: true], "the two left woke; the cancelled one threw")

        // After stop nothing waits here: a sleeper still waiting is handed back, a new one refused.
        let late = timers.reserve()
        let refused = try await withCheckedThrowingContinuation { (waiter: IOTimers.Waiter) in
            let placed = timers.wait(late, until: start + .seconds(60), waiter)
            #expect(placed == .waiting)
            let handedBack = timers.stop()
            #expect(handedBack.count == 1)
            handedBack.forEach { $0.resume(returning: false) }
        }
        #expect(refused == false)
        let afterStop = timers.reserve()
        let stoppedPlacement = try await withCheckedThrowingContinuation { (waiter: IOTimers.Waiter) in
            let placement = timers.wait(afterStop, until: start, waiter)
            waiter.resume(returning: placement == .stopped)
        }
        #expect(stoppedPlacement, "a sleep begun after stop is sent elsewhere")
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
