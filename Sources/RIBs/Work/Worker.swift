/// Something a worker can be started in: anything with an activation lifecycle.
public typealias InteractorScope = Interactable

/// Business logic that runs while an interactor is active, and stops when it is not.
///
/// `start(_:)` binds the worker to the interactor: it starts (``didStart()``) whenever the
/// interactor becomes active and stops (``didStop()``) when it deactivates, until ``stop()``.
/// Work started with ``task(_:)`` ends when the worker stops.
open class Worker {
    /// Whether the worker is running (its scope is active and it was started).
    public private(set) var isStarted = false
    private var binding: Subscription?
    private var runPeriod = ScopedWork()

    /// A worker that has not been started.
    public init() {}

    deinit { runPeriod.end() }

    /// Follows `scope`'s activation from now on.
    public final func start(_ scope: any InteractorScope) {
        stop()
        binding = scope.isActiveStream.observe { [weak self] active in
            if active { self?.begin() } else { self?.end() }
        }
    }

    /// Stops and stops following the scope. Idempotent.
    public final func stop() {
        binding?.cancel()
        binding = nil
        end()
    }

    /// Called each time the worker starts.
    open func didStart() {}

    /// Called each time the worker stops; its tasks are cancelled right after.
    open func didStop() {}

    /// Starts async work on the caller's actor, cancelled when the worker stops.
    @discardableResult
    public final func task(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: @escaping () async -> Void
    ) -> Task<Void, Never>? {
        guard isStarted else { return nil }
        return runPeriod.start(isolation: isolation, operation)
    }

    private func begin() {
        guard !isStarted else { return }
        isStarted = true
        didStart()
    }

    private func end() {
        guard isStarted else { return }
        didStop()
        runPeriod.end()
        isStarted = false
    }
}
