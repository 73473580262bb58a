extension Routing {
    /// The view of type `V` of the first active RIB in this subtree (depth first, in attachment
    /// order), or `nil`: what a UI test finds on screen to read and tap. To look for several kinds
    /// of view, as a simulated person does at every tick, gather ``ActiveViews`` once.
    public func activeView<V: ViewControllable>(of type: V.Type) -> V? {
        ActiveViews(of: self)[type]
    }
}
