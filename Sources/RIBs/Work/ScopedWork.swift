/// Tasks and subscriptions that belong to a period (an interactor's activity, a worker's run)
/// and end with it.
final class ScopedWork {
    private var tasks: [Task<Void, Never>] = []
    private var subscriptions: [Subscription] = []

    deinit { end() }

    func keep(_ subscription: Subscription) {
        subscriptions.append(subscription)
    }

    func start(isolation: isolated (any Actor)?, _ operation: @escaping () async -> Void) -> Task<Void, Never> {
        tasks.removeAll { $0.isCancelled }
        let task = Task {
            _ = isolation
            await operation()
        }
        tasks.append(task)
        return task
    }

    /// Cancels every task and subscription of the period.
    func end() {
        tasks.forEach { $0.cancel() }
        tasks.removeAll()
        subscriptions.forEach { $0.cancel() }
        subscriptions.removeAll()
    }
}
