/// The live view into a RIB tree: its events as they happen, for monitors and tests.
public final class Inspector {
    private let stream = ModelStream<RIBEvent?>(nil)
    /// Events so far, counted by kind.
    public private(set) var counts: [RIBEvent.Kind: Int] = [:]

    /// An inspector with no observers yet.
    public init() {}

    /// Calls `handler` with every event from now on.
    public func observe(_ handler: @escaping (RIBEvent) -> Void) -> Subscription {
        stream.observe { event in
            if let event { handler(event) }
        }
    }

    func record(_ event: RIBEvent) {
        counts[event.kind, default: 0] += 1
        stream.send(event)
    }
}
