/// The plugged-in children of one router: what a plugin point's enabled plugins make, attached
/// when the router loads, each detached when its feature is switched off (the kill switch), so
/// that the core flow beside them goes on.
///
/// Not `Sendable`: it lives in its router, on the tree's actor.
public final class PluginChildren {
    private var routers: [String: any Routing] = [:]
    private var switchOffs: Subscription?

    public init() {}

    /// The names of the plugins attached now.
    public var attached: [String] { routers.keys.sorted() }

    /// Attaches to `parent` what every enabled plugin of `point` makes for `context`, and from
    /// now on detaches each one whose feature is switched off. Call once per router.
    public func attach<Context>(_ point: PluginPoint<Context, any Routing>, for context: Context, to parent: any Routing) {
        assert(switchOffs == nil, "PluginChildren.attach was called twice: each router attaches its plugins once")
        for (name, router) in point.outputs(for: context) {
            routers[name] = router
            parent.attachChild(router)
        }
        switchOffs = point.flags.observeSwitchOffs { [weak self, weak parent] name, _ in
            guard let self, let parent, let router = routers.removeValue(forKey: name) else { return }
            parent.detachChild(router)
        }
    }
}
