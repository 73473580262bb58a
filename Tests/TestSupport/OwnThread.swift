import Foundation

/// Runs a long synchronous computation (seconds of CPU in a debug build: a whole in-process city,
/// a hierarchy against Dijkstra) on a thread of its own, and waits for it without holding a thread.
///
/// Every test of a run shares the two threads that run Swift tasks on this machine, and a test
/// that computes for seconds on one of them holds up every other test's tasks meanwhile: a test
/// that waits for a socket event or a child process then waits behind it, and its hang guard
/// (``within(_:_:_:)``) measures the wait instead of the hang. On a thread of its own the
/// computation shares the cores by the kernel's time slices instead.
///
/// Checks (`#expect`) belong in the test, on what the computation returns: on another thread
/// they would not know which test they are part of.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result(catching: work)) }.start()
    }
}

/// ``onOwnThread(_:)`` for a computation that cannot fail.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
