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
