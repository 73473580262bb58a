import Glibc

/// A value guarded by a `pthread_mutex`, for the transport's state shared with its I/O thread.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer intercepts `pthread_mutex`
/// but cannot see `Mutex`'s futex on Linux: with `Mutex`, every guarded access was reported as a
/// race and the transport could not be checked under `--sanitize=thread` at all.
///
/// `@unchecked Sendable` is sound: `state` is read and written only inside ``withLock(_:)``,
/// between `pthread_mutex_lock` and `pthread_mutex_unlock`, and `State` itself is `Sendable`.
final class Locked<State: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ initial: State) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        state = initial
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
