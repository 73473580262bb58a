import Foundation
import TestSupport
import Testing

@testable import ZeroMQ

/// Waits made by an actor on the I/O thread, through `withCallerIsolatedContinuation`.
actor WaiterOnLoop {
    nonisolated let socket: Socket
    nonisolated var unownedExecutor: UnownedSerialExecutor { socket.executor.asUnownedSerialExecutor() }
    private var pending: CheckedContinuation<String, any Error>?

    init(socket: Socket) { self.socket = socket }

    /// The thread the wait's body ran on.
    func bodyThread() async -> String {
        await withCallerIsolatedContinuation { (continuation: CheckedContinuation<String, Never>) in
            continuation.resume(returning: currentThreadName())
        } onCancel: {
        }
    }

    /// Waits until ``resume(with:)`` or cancellation; returns what it was resumed with and the
    /// threads the body and the code after the wait ran on.
    func waitToBeResumed(cancelled: Locked<Bool>) async throws -> (value: String, body: String, after: String) {
        var body = ""
        let value = try await withCallerIsolatedContinuation { (continuation: CheckedContinuation<String, any Error>) in
            body = currentThreadName()
            pending = continuation
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
        return (value, body, currentThreadName())
    }

    var isWaiting: Bool { pending != nil }

    func resume(with result: Result<String, any Error>) {
        pending?.resume(with: result)
        pending = nil
    }
}

@Suite("Cancellable waits that stay on the caller's executor")
struct CallerIsolatedContinuationTests {
    struct Refused: Error {}

    @Test("The body of a wait made on the I/O thread runs on the I/O thread, not on a global one")
    func bodyOnCallersThread() async throws {
        try await within(20) {
            let transport = try Transport(name: "wait-body-io")
            let waiter = WaiterOnLoop(socket: try await transport.socket(.pull))
            #expect(await waiter.bodyThread() == "wait-body-io")
            await transport.shutdown()
        }
    }

    @Test("A wait returns what it is resumed with, throws what it is failed with, and calls onCancel when cancelled")
    func resumedFailedCancelled() async throws {
        try await within(20) {
            let transport = try Transport(name: "wait-resume-io")
            let waiter = WaiterOnLoop(socket: try await transport.socket(.pull))
            let cancelled = Locked(false)

            let resumed = Task { try await waiter.waitToBeResumed(cancelled: cancelled) }
            while !(await waiter.isWaiting) { await Task.yield() }
            await waiter.resume(with: .success("reply"))
            let outcome = try await resumed.value
            #expect(outcome.value == "reply")
            #expect(outcome.body == "wait-resume-io")
            #expect(outcome.after == "wait-resume-io")
            #expect(cancelled.withLock { $0 } == false)

            let failed = Task { try await waiter.waitToBeResumed(cancelled: cancelled) }
            while !(await waiter.isWaiting) { await Task.yield() }
            await waiter.resume(with: .failure(Refused()))
            await #expect(throws: Refused.self) { try await failed.value }

            let abandoned = Task { try await waiter.waitToBeResumed(cancelled: cancelled) }
            while !(await waiter.isWaiting) { await Task.yield() }
            abandoned.cancel()
            #expect(cancelled.withLock { $0 } == true)
            await waiter.resume(with: .failure(CancellationError()))
            await #expect(throws: CancellationError.self) { try await abandoned.value }
            await transport.shutdown()
        }
    }
}
