extension Routing {
    /// The view of type `V` of the first active RIB in this subtree (depth first, in attachment
    /// order), or `nil`: what a simulated person (or a UI test) finds on screen to read and tap.
    ///
    /// The view's type must be exactly `V` (views are final classes): comparing types is one
    /// pointer comparison per RIB, where a cast walks each view's generic superclasses through the
    /// runtime's metadata caches — a person reads the screen many times a second. To look for
    /// several kinds of view, ``ActiveViews`` walks the tree once.
    public func activeView<V: ViewControllable>(of type: V.Type) -> V? {
        firstActiveView(ofType: ObjectIdentifier(type)).map { unsafeDowncast($0, to: V.self) }
    }

    private func firstActiveView(ofType wanted: ObjectIdentifier) -> (any ViewControllable)? {
        guard interactable.isActive else { return nil }
        if let view, ObjectIdentifier(Swift.type(of: view)) == wanted { return view }
        for child in children {
            if let found = child.firstActiveView(ofType: wanted) { return found }
        }
        return nil
    }
}
