/// What a router needs of its interactor: the activation lifecycle.
public protocol Interactable: AnyObject {
    /// Whether the interactor is active (attached and running its business logic).
    var isActive: Bool { get }
    /// Active state as a stream: replays the current state to every new observer.
    var isActiveStream: ModelStream<Bool> { get }
    /// Starts the interactor. Idempotent: a second call does nothing.
    func activate()
    /// Stops the interactor and cancels its active-period work. Idempotent.
    func deactivate()
}

/// Told directly when an interactor activates or deactivates: its router.
protocol ActiveStateFollowing: AnyObject {
    func interactorDidChange(active: Bool)
}

/// The business logic of a RIB: makes service calls, observes model streams, decides routing.
///
/// Subclasses override ``didBecomeActive()`` and ``willResignActive()``; `activate` and
/// `deactivate` themselves are final. Work started with ``task(_:)`` or kept with
/// ``bindToActivePeriod(_:)`` ends when the interactor deactivates.
open class Interactor: Interactable {
    public final private(set) var isActive = false
    /// Made when first asked for: most interactors are followed only by their router, which is
    /// told directly (``follower``).
    private var activeStream: ModelStream<Bool>?
    private var activePeriod = ScopedWork()
    /// The router that follows this interactor's activation; set when the router loads, cleared
    /// before the router goes (so the unowned reference never outlives it).
    unowned var follower: (any ActiveStateFollowing)?

    /// An inactive interactor.
    public init() {}

    deinit { activePeriod.end() }

    /// Active state as a stream: replays the current state to every new observer.
    public final var isActiveStream: ModelStream<Bool> {
        if let activeStream { return activeStream }
        let stream = ModelStream(isActive)
        activeStream = stream
        return stream
    }

    public final func activate() {
        guard !isActive else { return }
        changeActive(to: true)
        didBecomeActive()
    }

    public final func deactivate() {
        guard isActive else { return }
        willResignActive()
        activePeriod.end()
        changeActive(to: false)
    }

    private func changeActive(to active: Bool) {
        isActive = active
        follower?.interactorDidChange(active: active)
        activeStream?.send(active)
    }

    /// Called once the interactor is active. Start observing streams and services here.
    open func didBecomeActive() {}

    /// Called just before the interactor stops. Its active-period work is cancelled right after.
    open func willResignActive() {}

    /// Keeps a subscription until the interactor deactivates (the reference's `disposeOnDeactivate`).
    /// Cancelled at once if the interactor is not active. Its observer may capture the
    /// interactor `unowned`: the subscription ends before the interactor goes, and a stream calls
    /// no observer whose subscription has ended.
    public final func bindToActivePeriod(_ subscription: Subscription) {
        guard isActive else { return subscription.cancel() }
        activePeriod.keep(subscription)
    }

    /// Starts async work on the caller's actor, cancelled when the interactor deactivates.
    /// Does nothing if the interactor is not active.
    @discardableResult
    public final func task(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: @escaping () async -> Void
    ) -> Task<Void, Never>? {
        guard isActive else { return nil }
        return activePeriod.start(isolation: isolation, operation)
    }
}

extension Interactable {
    /// Suspends until the interactor is active (at once if it is), on the caller's actor.
    /// Workflows wait on this.
    public func waitUntilActive(isolation: isolated (any Actor)? = #isolation) async {
        guard !isActive else { return }
        var subscription: Subscription?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            var resumed = false
            subscription = isActiveStream.observe { active in
                guard active, !resumed else { return }
                resumed = true
                continuation.resume()
            }
        }
        subscription?.cancel()
    }
}
