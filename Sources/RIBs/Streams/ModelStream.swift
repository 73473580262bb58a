/// An observable value: the current value plus every later change, for any number of observers.
///
/// The basis of one-way data flow (service → stream → interactor). Values should be immutable
/// models. A new observer is called at once with the current value, then on every change.
/// Not `Sendable`: a stream lives on the actor that owns its RIB tree.
public final class ModelStream<Value> {
    /// The latest value.
    public private(set) var value: Value
    private typealias Observer = (id: ObjectIdentifier, call: (Value) -> Void)
    /// The earliest observer still subscribed, kept inline, then the others in subscription
    /// order: most streams have one observer, and thousands of trees per process make an
    /// array's buffer for each count.
    private var first: Observer?
    private var more: [Observer] = []

    /// A stream whose current value is `initial`.
    public init(_ initial: Value) {
        value = initial
    }

    /// Publishes a new value to every observer, in the order they subscribed.
    public func send(_ newValue: Value) {
        value = newValue
        let first = self.first
        let more = self.more
        first?.call(newValue)
        for observer in more {
            observer.call(newValue)
        }
    }

    /// Calls `observer` with the current value now and with every later value, until the
    /// returned subscription is cancelled or released.
    public func observe(_ observer: @escaping (Value) -> Void) -> Subscription {
        let subscription = Subscription(source: self)
        if first == nil {
            first = (ObjectIdentifier(subscription), observer)
        } else {
            more.append((ObjectIdentifier(subscription), observer))
        }
        observer(value)
        return subscription
    }

    /// How many observers are subscribed (for tests and leak checks).
    public var observerCount: Int { (first == nil ? 0 : 1) + more.count }
}

extension ModelStream where Value: Equatable {
    /// Publishes only if the value differs from the current one.
    public func sendIfChanged(_ newValue: Value) {
        if newValue != value { send(newValue) }
    }
}

extension ModelStream: SubscriptionSource {
    func remove(_ subscription: ObjectIdentifier) {
        if first?.id == subscription {
            first = more.isEmpty ? nil : more.removeFirst()
        } else {
            more.removeAll { $0.id == subscription }
        }
        if more.isEmpty { more = [] }
    }
}
