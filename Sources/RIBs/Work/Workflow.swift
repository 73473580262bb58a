/// A deep-link style chain of steps through the RIB tree: each step acts on an item (usually an
/// interactor, behind an "actionable item" protocol) and returns the item the next step acts on.
///
/// Before each step the workflow waits until its item, if it is an ``Interactable``, is active,
/// so a step never acts on a RIB that is not attached and running yet. Steps run on the caller's
/// actor, where the tree lives.
public struct Workflow<Root, Current> {
    /// Type-erased steps; `onStep` guarantees each one receives the type the previous returned.
    private let steps: [(Any) throws -> Any]

    private init(steps: [(Any) throws -> Any]) {
        self.steps = steps
    }

    /// Adds a step.
    public func onStep<Next>(_ step: @escaping (Current) throws -> Next) -> Workflow<Root, Next> {
        Workflow<Root, Next>(
            steps: steps + [
                { item in
                    // The chain is typed at construction: the item is the previous step's `Current`.
                    try step(item as! Current)
                }
            ])
    }

    /// Runs the steps from `root`, returning the last step's item.
    public func run(on root: Root, isolation: isolated (any Actor)? = #isolation) async throws -> Current {
        var item: Any = root
        for step in steps {
            if let interactable = item as? any Interactable {
                await interactable.waitUntilActive(isolation: isolation)
            }
            try Task.checkCancellation()
            item = try step(item)
        }
        // Typed at construction: the last step returns `Current` (or there were none and Root == Current).
        return item as! Current
    }
}

extension Workflow where Root == Current {
    /// A workflow that starts at items of type `Root`.
    public init() {
        steps = []
    }
}
