/// What a ``Subscription`` ends: it removes the subscription's observer.
protocol SubscriptionSource: AnyObject {
    func remove(_ subscription: ObjectIdentifier)
}

/// A registration that ends when cancelled or released.
public final class Subscription {
    /// The stream observed, until cancelled (weak: a stream may go first).
    private weak var source: (any SubscriptionSource)?

    init(source: any SubscriptionSource) {
        self.source = source
    }

    deinit { cancel() }

    /// Ends the registration. Idempotent.
    public func cancel() {
        let source = self.source
        self.source = nil
        source?.remove(ObjectIdentifier(self))
    }

    /// Keeps the subscription until `bag` is emptied.
    public func store(in bag: inout [Subscription]) {
        bag.append(self)
    }
}
