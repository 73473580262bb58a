/// An observable value: the current value plus every later change, for any number of observers.
///
/// The basis of one-way data flow (service → stream → interactor). Values should be immutable
/// models. A new observer is called at once with the current value, then on every change.
/// Not `Sendable`: a stream lives on the actor that owns its RIB tree.
public final class ModelStream<Value> {
    /// The latest value.
    public private(set) var value: Value
    /// An observer: its number on this stream (never reused, unlike an address), the
    /// subscription that ends it (alive as long as the entry: it removes the entry as it goes).
    private typealias Observer = (number: UInt32, subscription: Unowned<Subscription>, call: (Value) -> Void)
    /// The earliest observer still subscribed, kept inline, then the others in subscription
    /// order: most streams have one observer, and thousands of trees per process make an
    /// array's buffer for each count.
    private var first: Observer?
    private var more: [Observer] = []
    /// Observers subscribed so far: the next one's number.
    private var issued: UInt32 = 0

    /// A stream whose current value is `initial`.
    public init(_ initial: Value) {
        value = initial
    }

    deinit {
        // The subscriptions that outlive the stream must not reach it.
        first?.subscription.object.source = nil
        for observer in more { observer.subscription.object.source = nil }
    }

    /// Publishes a new value to every observer, in the order they subscribed. An observer whose
    /// subscription ends while the value goes round (an earlier observer detached its RIB) is not
    /// called: its RIB may be gone.
    public func send(_ newValue: Value) {
        value = newValue
        guard let first else { return }
        guard !more.isEmpty else { return first.call(newValue) }
        // By number, not by subscription: one that ends during the send frees its address, and
        // one made meanwhile (an observer built a RIB) may take it. A closure, not a key path: in
        // a generic class a key path is made at run time, each call.
        let order = [first.number] + more.map { $0.number }
        for number in order {
            if let observer = self.first, observer.number == number {
                observer.call(newValue)
            } else if let observer = more.first(where: { $0.number == number }) {
                observer.call(newValue)
            }
        }
    }

    /// Calls `observer` with the current value now and with every later value, until the
    /// returned subscription is cancelled or released.
    public func observe(_ observer: @escaping (Value) -> Void) -> Subscription {
        let subscription = Subscription(source: self)
        issued &+= 1
        if first == nil {
            first = (issued, Unowned(subscription), observer)
        } else {
            more.append((issued, Unowned(subscription), observer))
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
    func remove(_ subscription: Subscription) {
        if first?.subscription.id == ObjectIdentifier(subscription) {
            first = more.isEmpty ? nil : more.removeFirst()
        } else {
            more.removeAll { $0.subscription.id == ObjectIdentifier(subscription) }
        }
        if more.isEmpty { more = [] }
    }
}

/// An unowned reference as a value (a tuple cannot hold one directly). Unchecked: a stream
/// compares its entries' subscriptions with one that is going (in its `deinit`, when a checked
/// reference would trap), and an entry never outlives its subscription (see ``Subscription``).
struct Unowned<Object: AnyObject> {
    unowned(unsafe) let object: Object

    init(_ object: Object) {
        self.object = object
    }

    /// Which object, without touching it (it may be going).
    var id: ObjectIdentifier { ObjectIdentifier(object) }
}
