/// Something that happened in a RIB tree.
public struct RIBEvent: Sendable, Equatable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Codable {
        case attached, detached, activated, deactivated
    }

    /// What happened.
    public let kind: Kind
    /// The RIB's path, e.g. `/Root/LoggedIn`.
    public let path: String
    /// When, on the tree's clock.
    public let time: Duration
}

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

/// The live tree as a value: what a monitor shows of an app.
public struct RIBTreeSnapshot: Sendable, Equatable, Codable {
    /// The RIB's name, its path, whether it has a view, and whether its interactor is active.
    public let name: String
    public let path: String
    public let viewful: Bool
    public let active: Bool
    /// What the RIB's view shows, for viewful RIBs.
    public let screen: String?
    /// The attached children, in attachment order.
    public let children: [RIBTreeSnapshot]

    /// How many RIBs the tree holds.
    public var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}

extension Routing {
    /// The tree below and including this RIB, as it is now.
    public func snapshot() -> RIBTreeSnapshot {
        RIBTreeSnapshot(
            name: name,
            path: path,
            viewful: view != nil,
            active: interactable.isActive,
            screen: view?.screenDescription,
            children: children.map { $0.snapshot() }
        )
    }
}

/// What a RIB tree shares from its root down: its clock, leak detector and inspector.
/// Given to the root's `launch`; children inherit it when attached.
public final class RIBContext {
    /// Time on the tree's clock (simulated time in ribcity), since any fixed origin.
    public let now: () -> Duration
    /// Expects detached RIBs to deallocate; the owner calls `check()` on its ticks.
    public let leakDetector: LeakDetector
    /// The tree's events, for monitors and tests.
    public let inspector = Inspector()

    /// A context on the clock `now`, whose leak detector allows detached RIBs `leakBudget` to go.
    public init(leakBudget: Duration = .seconds(1), now: @escaping () -> Duration) {
        self.now = now
        leakDetector = LeakDetector(budget: leakBudget, now: now)
    }
}

extension Routing {
    /// The view of type `V` of the first active RIB in this subtree (depth first, in attachment
    /// order), or `nil`: what a simulated person (or a UI test) finds on screen to read and tap.
    public func activeView<V>(of type: V.Type) -> V? {
        guard interactable.isActive else { return nil }
        if let view = view as? V { return view }
        for child in children {
            if let found = child.activeView(of: type) { return found }
        }
        return nil
    }
}
