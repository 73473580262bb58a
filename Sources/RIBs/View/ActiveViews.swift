/// The views of a subtree's active RIBs, gathered in one walk (depth first, in attachment order):
/// what is on screen, for a simulated person who looks for several kinds of view at each tick.
///
/// Looking one view up is ``Routing/activeView(of:)``'s answer for the tree as it was when it was
/// gathered; after acting on a view (which may change the tree) gather again.
public struct ActiveViews {
    private var found: [(type: ObjectIdentifier, view: any ViewControllable)] = []

    /// The active views under (and including) `root`.
    public init(of root: any Routing) {
        gather(root)
    }

    /// The view of type `V` of the first active RIB, or `nil` (the type must be exactly `V`, as
    /// for ``Routing/activeView(of:)``).
    public subscript<V: ViewControllable>(_ type: V.Type) -> V? {
        let wanted = ObjectIdentifier(type)
        for entry in found where entry.type == wanted { return unsafeDowncast(entry.view, to: V.self) }
        return nil
    }

    private mutating func gather(_ router: any Routing) {
        guard router.interactable.isActive else { return }
        if let view = router.view { found.append((ObjectIdentifier(Swift.type(of: view)), view)) }
        for child in router.children { gather(child) }
    }
}
