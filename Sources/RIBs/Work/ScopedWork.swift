/// Tasks and subscriptions that belong to a period (an interactor's activity, a worker's run)
/// and end with it. A value kept inside its owner: empty, it allocates nothing, and thousands of
/// idle RIBs per process make that count. The owner calls ``end()`` when the period ends and
/// when it goes.
struct ScopedWork {
    private var tasks: [Task<Void, Never>] = []
    /// The first subscription kept inline: most periods keep one or none, and an array's
    /// buffer would cost more than the subscription itself.
    private var subscription: Subscription?
    private var moreSubscriptions: [Subscription] = []

    mutating func keep(_ subscription: Subscription) {
        if self.subscription == nil {
            self.subscription = subscription
        } else {
            moreSubscriptions.append(subscription)
        }
    }

    mutating func start(isolation: isolated (any Actor)?, _ operation: @escaping () async -> Void) -> Task<Void, Never> {
        tasks.removeAll { $0.isCancelled }
        let task = Task {
            _ = isolation
            await operation()
        }
        tasks.append(task)
        return task
    }

    /// Cancels every task and subscription of the period.
    mutating func end() {
        let tasks = self.tasks
        let first = subscription
        let more = moreSubscriptions
        self.tasks = []
        subscription = nil
        moreSubscriptions = []
        tasks.forEach { $0.cancel() }
        first?.cancel()
        more.forEach { $0.cancel() }
    }
}
