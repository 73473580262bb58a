/// A cancellable wait for a continuation that stays on the caller's executor.
///
/// `withTaskCancellationHandler`'s operation closure is nonisolated unless it captures the
/// caller's isolation (SE-0420): written the plain way, an actor on the I/O thread that waits
/// hops to a global thread to suspend there. Here the closure captures `isolation` (it hands it
/// to the continuation), so it runs and suspends where the caller runs
/// (`CallerIsolatedContinuationTests` fail with the plain form). A resumed continuation is
/// queued on the generic executor, which for a task that prefers the I/O thread as its
/// executor (the hosts' and dispatch's loops and requests do) is the I/O thread again: no
/// other thread is woken.
///
/// - Parameters:
///   - body: called at once, on the caller's executor, with the continuation to resume.
///   - onCancel: called when the task is cancelled while (or before) waiting.
public func withCallerIsolatedContinuation<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (CheckedContinuation<T, any Error>) -> Void,
    onCancel: @Sendable () -> Void
) async throws -> T {
    try await withTaskCancellationHandler {
        return try await withCheckedThrowingContinuation(isolation: isolation, body)
    } onCancel: {
        onCancel()
    }
}

/// ``withCallerIsolatedContinuation(isolation:_:onCancel:)`` for a wait that cannot fail.
public func withCallerIsolatedContinuation<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (CheckedContinuation<T, Never>) -> Void,
    onCancel: @Sendable () -> Void
) async -> T {
    await withTaskCancellationHandler {
        return await withCheckedContinuation(isolation: isolation, body)
    } onCancel: {
        onCancel()
    }
}
