/// A registration that ends when cancelled or released.
public final class Subscription {
    var onCancel: (() -> Void)?

    init() {}

    deinit { cancel() }

    /// Ends the registration. Idempotent.
    public func cancel() {
        let action = onCancel
        onCancel = nil
        action?()
    }

    /// Keeps the subscription until `bag` is emptied.
    public func store(in bag: inout [Subscription]) {
        bag.append(self)
    }
}
