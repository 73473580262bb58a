/// The live view into a RIB tree: its events as they happen, for monitors and tests.
///
/// A value, kept in place by its tree's ``RIBContext``: one allocation fewer per app.
public struct Inspector {
    /// Made for the first observer: most trees are never watched.
    private var stream: ModelStream<RIBEvent?>?
    /// Events so far, by kind, in ``RIBEvent/Kind/allCases`` order.
    private var tally: (attached: Int, detached: Int, activated: Int, deactivated: Int) = (0, 0, 0, 0)

    /// An inspector with no observers yet.
    public init() {}

    /// Events so far, counted by kind (kinds with none left out).
    public var counts: [RIBEvent.Kind: Int] {
        let all: [RIBEvent.Kind: Int] = [
            .attached: tally.attached, .detached: tally.detached, .activated: tally.activated, .deactivated: tally.deactivated,
        ]
        return all.filter { $0.value > 0 }
    }

    /// Calls `handler` with every event from now on.
    public mutating func observe(_ handler: @escaping (RIBEvent) -> Void) -> Subscription {
        let stream = self.stream ?? ModelStream<RIBEvent?>(nil)
        self.stream = stream
        return stream.observe { event in
            if let event { handler(event) }
        }
    }

    /// Counts an event of `kind`; returns the stream to tell observers on (`nil`: nobody
    /// watches), for the caller to send the event to once this value is no longer being changed
    /// (an observer may read ``counts``).
    mutating func record(_ kind: RIBEvent.Kind) -> ModelStream<RIBEvent?>? {
        switch kind {
        case .attached: tally.attached += 1
        case .detached: tally.detached += 1
        case .activated: tally.activated += 1
        case .deactivated: tally.deactivated += 1
        }
        return stream
    }
}
