import Foundation
import Synchronization

/// A hung test fails with this instead of hanging the suite.
public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "timed out: \(what)" }
}

/// How many times slower this run of the tests is than a plain one: `RIBCITY_HANG_GUARD_SCALE`
/// from the environment (4 under ThreadSanitizer, `Tools/test --tsan` and CI), else 1.
public var hangGuardScale: Double {
    max(1, ProcessInfo.processInfo.environment["RIBCITY_HANG_GUARD_SCALE"].flatMap(Double.init) ?? 1)
}

/// Runs `body`, failing instead of hanging the suite if it takes longer than `seconds` (times
/// `RIBCITY_HANG_GUARD_SCALE` from the environment: a sanitizer run is several times slower).
/// A guard against hangs, not a performance assertion.
///
/// On time-out the body is cancelled and `TimedOut` thrown at once, without waiting for the body
/// to end: a body stuck in something that ignores cancellation (a child process that never
/// exits) fails its test instead of holding up the whole run, as a task group's wait for its
/// children would.
public func within<T: Sendable>(
    _ seconds: Double, _ what: String = #function,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let scale = hangGuardScale
    let race = FirstOutcome<T>()
    let work = Task {
        do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
    }
    let guardTask = Task {
        // Cancelled: the body ended in time.
        guard (try? await Task.sleep(for: .seconds(seconds * max(1, scale)))) != nil else { return }
        race.finish(.failure(TimedOut(what: what)))
        work.cancel()
    }
    defer { guardTask.cancel() }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { race.wait($0) }
    } onCancel: {
        work.cancel()
    }
}

/// The first of the body's result and the guard's time-out, handed to whoever waits for it.
private final class FirstOutcome<T: Sendable>: Sendable {
    private enum State {
        case open
        case waiting(CheckedContinuation<T, any Error>)
        case decided(Result<T, any Error>)
        case delivered
    }
    private let state = Mutex(State.open)

    func finish(_ result: Result<T, any Error>) {
        state.withLock { state in
            switch state {
            case .open: state = .decided(result)
            case .waiting(let continuation):
                continuation.resume(with: result)
                state = .delivered
            case .decided, .delivered: break
            }
        }
    }

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { state in
            if case .decided(let result) = state {
                continuation.resume(with: result)
                state = .delivered
            } else {
                state = .waiting(continuation)
            }
        }
    }
}
