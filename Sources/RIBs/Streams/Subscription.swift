/// What a ``Subscription`` ends: it removes the subscription's observer.
protocol SubscriptionSource: AnyObject {
    func remove(_ subscription: Subscription)
}

/// A registration that ends when cancelled or released.
public final class Subscription {
    /// The stream observed, until cancelled or until the stream goes (it clears this as it goes,
    /// and the subscription takes itself off the stream as it goes): so neither reference
    /// outlives what it names. Not `weak`: a weak reference gives the stream a side table, 32
    /// bytes more for every stream observed, thousands of them per process.
    unowned var source: (any SubscriptionSource)?

    init(source: any SubscriptionSource) {
        self.source = source
    }

    deinit { cancel() }

    /// Ends the registration. Idempotent.
    public func cancel() {
        guard let source else { return }
        self.source = nil
        source.remove(self)
    }

    /// Keeps the subscription until `bag` is emptied.
    public func store(in bag: inout [Subscription]) {
        bag.append(self)
    }
}
