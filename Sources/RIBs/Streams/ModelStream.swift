/// An observable value: the current value plus every later change, for any number of observers.
///
/// The basis of one-way data flow (service → stream → interactor). Values should be immutable
/// models. A new observer is called at once with the current value, then on every change.
/// Not `Sendable`: a stream lives on the actor that owns its RIB tree.
public final class ModelStream<Value> {
    /// The latest value.
    public private(set) var value: Value
    /// In subscription order. A plain array: streams have few observers, and thousands of trees
    /// per process make every stream's footprint count.
    private var observers: [(id: ObjectIdentifier, call: (Value) -> Void)] = []

    /// A stream whose current value is `initial`.
    public init(_ initial: Value) {
        value = initial
    }

    /// Publishes a new value to every observer, in the order they subscribed.
    public func send(_ newValue: Value) {
        value = newValue
        for observer in observers {
            observer.call(newValue)
        }
    }

    /// Calls `observer` with the current value now and with every later value, until the
    /// returned subscription is cancelled or released.
    public func observe(_ observer: @escaping (Value) -> Void) -> Subscription {
        let subscription = Subscription()
        let id = ObjectIdentifier(subscription)
        observers.append((id, observer))
        subscription.onCancel = { [weak self] in
            self?.observers.removeAll { $0.id == id }
        }
        observer(value)
        return subscription
    }

    /// How many observers are subscribed (for tests and leak checks).
    public var observerCount: Int { observers.count }
}

extension ModelStream where Value: Equatable {
    /// Publishes only if the value differs from the current one.
    public func sendIfChanged(_ newValue: Value) {
        if newValue != value { send(newValue) }
    }
}
