/// The views of a subtree's active RIBs, gathered in one walk (depth first, in attachment order):
/// what is on screen, for a simulated person who looks for several kinds of view at each tick.
///
/// A view's type must be exactly the one asked for (views are final classes): comparing types is
/// one pointer comparison per view, where a cast walks each view's generic superclasses through
/// the runtime's metadata caches. What is gathered is the tree as it was; ``perform(_:on:)`` acts
/// on a view and gathers again, since an act may change the tree.
public struct ActiveViews {
    private let root: any Routing
    private var found: [(type: ObjectIdentifier, view: any ViewControllable)] = []

    /// The active views under (and including) `root`.
    public init(of root: any Routing) {
        self.root = root
        // One allocation for what a screen shows (a handful of views), not one per doubling.
        found.reserveCapacity(4)
        gather(root)
    }

    /// The view of type `V` of the first active RIB, or `nil`.
    public subscript<V: ViewControllable>(_ type: V.Type) -> V? {
        let wanted = ObjectIdentifier(type)
        for entry in found where entry.type == wanted { return unsafeDowncast(entry.view, to: V.self) }
        return nil
    }

    /// Performs `action` on `view` (one of these views), then reads the screen again.
    public mutating func perform<Screen, Action>(_ action: Action, on view: View<Screen, Action>) {
        view.perform(action)
        found.removeAll(keepingCapacity: true)
        gather(root)
    }

    private mutating func gather(_ router: any Routing) {
        guard router.isActive else { return }
        if let view = router.view { found.append((ObjectIdentifier(Swift.type(of: view)), view)) }
        for child in router.children { gather(child) }
    }
}
