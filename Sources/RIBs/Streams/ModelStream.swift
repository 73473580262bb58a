/// An observable value: the current value plus every later change, for any number of observers.
///
/// The basis of one-way data flow (service → stream → interactor). Values should be immutable
/// models. A new observer is called at once with the current value, then on every change.
/// Not `Sendable`: a stream lives on the actor that owns its RIB tree.
public final class ModelStream<Value> {
    /// The latest value.
    public private(set) var value: Value
    /// The earliest observer, kept inline while it is subscribed (most streams have one, and
    /// thousands of trees per process make an array's buffer for each count): its key, and its
    /// call apart from it, so that ``remove(_:)`` reads the key without `Value`'s metadata.
    private var firstKey: ObserverKey?
    private var firstCall: ((Value) -> Void)?
    /// The observers after the first, in subscription order, each call in a box: one concrete
    /// element type, so that ``remove(_:)`` — reached through ``SubscriptionSource``, in code not
    /// specialized for `Value` — takes one out without asking the runtime for the metadata of an
    /// array of generic elements (with a tuple for an element, under a lock: two fifths of a
    /// tree's build-to-release cycle went there). Once the first has gone, a later observer
    /// joins these, never the inline place: the inline one, if any, always precedes them.
    private var later: [LaterObserver] = []
    /// Observers subscribed so far: the next one's number.
    private var issued: UInt32 = 0

    /// A stream whose current value is `initial`.
    public init(_ initial: Value) {
        value = initial
    }

    deinit {
        // The subscriptions that outlive the stream must not reach it.
        firstKey?.subscription.object.source = nil
        for observer in later { observer.key.subscription.object.source = nil }
    }

    /// Publishes a new value to every observer, in the order they subscribed. An observer whose
    /// subscription ends while the value goes round (an earlier observer detached its RIB) is not
    /// called: its RIB may be gone.
    public func send(_ newValue: Value) {
        value = newValue
        guard !later.isEmpty else {
            firstCall?(newValue)
            return
        }
        // By number, not by subscription: one that ends during the send frees its address, and
        // one made meanwhile (an observer built a RIB) may take it. A closure, not a key path: in
        // a generic class a key path is made at run time, each call.
        var order: [UInt32] = []
        order.reserveCapacity(later.count + 1)
        if let firstKey { order.append(firstKey.number) }
        for observer in later { order.append(observer.key.number) }
        for number in order {
            if let firstKey, firstKey.number == number, let call = firstCall {
                call(newValue)
            } else if let observer = later.first(where: { $0.key.number == number }) {
                unsafeDowncast(observer.call, to: ObserverCall<Value>.self).call(newValue)
            }
        }
    }

    /// Calls `observer` with the current value now and with every later value, until the
    /// returned subscription is cancelled or released.
    public func observe(_ observer: @escaping (Value) -> Void) -> Subscription {
        let subscription = Subscription(source: self)
        issued &+= 1
        let key = ObserverKey(number: issued, subscription: Unowned(subscription))
        if firstKey == nil && later.isEmpty {
            firstKey = key
            firstCall = observer
        } else {
            later.append(LaterObserver(key: key, call: ObserverCall(observer)))
        }
        observer(value)
        return subscription
    }

    /// How many observers are subscribed (for tests and leak checks).
    public var observerCount: Int { (firstKey == nil ? 0 : 1) + later.count }
}

/// Which observer of a stream: its number there (never reused, unlike an address) and the
/// subscription that ends it (alive as long as the entry: it removes the entry as it goes).
/// This and ``LaterObserver`` stand outside ``ModelStream``: a type nested in a generic class is
/// generic too, and would bring back the metadata look-ups they are there to avoid.
struct ObserverKey {
    let number: UInt32
    let subscription: Unowned<Subscription>
}

/// An observer after a stream's first: its key and its call, boxed (``ObserverCall``).
struct LaterObserver {
    let key: ObserverKey
    let call: AnyObject
}

/// A later observer's call, in a box of one concrete type per stream's `Value`.
final class ObserverCall<Value> {
    let call: (Value) -> Void

    init(_ call: @escaping (Value) -> Void) {
        self.call = call
    }
}

extension ModelStream where Value: Equatable {
    /// Publishes only if the value differs from the current one.
    public func sendIfChanged(_ newValue: Value) {
        if newValue != value { send(newValue) }
    }
}

extension ModelStream: SubscriptionSource {
    func remove(_ subscription: Subscription) {
        let id = ObjectIdentifier(subscription)
        if firstKey?.subscription.id == id {
            firstKey = nil
            firstCall = nil
        } else if let index = later.firstIndex(where: { $0.key.subscription.id == id }) {
            // A subscription is on its stream once.
            later.remove(at: index)
            if later.isEmpty { later = [] }
        }
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
