/// The plugged-in children of one router: what a plugin point's enabled plugins make, attached
/// when the router loads, each detached when its feature is switched off (the kill switch), so
/// that the core flow beside them goes on.
///
/// Not `Sendable`: it lives in its router, on the tree's actor.
public final class PluginChildren {
    /// By plugin name; a few at most, so an array (a dictionary's storage is twice the bytes).
    private var routers: [(name: String, router: any Routing)] = []
    private var switchOffs: Subscription?
    /// What ``attach(to:)`` will attach: the point and its context, held only until then.
    private var pending: ((any Routing) -> Void)?

    public init() {}

    /// Children to attach when their router loads (``attach(to:)``): what every enabled plugin of
    /// `point` makes for `context`. The router keeps nothing of them after.
    public convenience init<Context>(_ point: PluginPoint<Context, any Routing>, for context: Context) {
        self.init()
        pending = { [unowned self] parent in attach(point, for: context, to: parent) }
    }

    /// Attaches what the plugin point given at ``init(_:for:)`` makes, and lets the point go.
    public func attach(to parent: any Routing) {
        let attach = pending
        pending = nil
        attach?(parent)
    }

    /// The names of the plugins attached now.
    public var attached: [String] { routers.map(\.name).sorted() }

    /// Attaches to `parent` what every enabled plugin of `point` makes for `context`, and from
    /// now on detaches each one whose feature is switched off. Call once per router.
    public func attach<Context>(_ point: PluginPoint<Context, any Routing>, for context: Context, to parent: any Routing) {
        assert(switchOffs == nil, "PluginChildren.attach was called twice: each router attaches its plugins once")
        let made = point.outputs(for: context)
        assert(Set(made.map(\.name)).count == made.count, "two plugins of one plugin point share a name")
        routers = made.map { ($0.name, $0.output) }
        for (_, router) in routers { parent.attachChild(router) }
        // Unowned: the subscription is this object's, and this object is its router's (the
        // parent's), so the closure never runs after either is gone; weak references would give
        // each a side table.
        switchOffs = point.flags.observeSwitchOffs { [unowned self, unowned parent] name, _ in
            guard let index = routers.firstIndex(where: { $0.name == name }) else { return }
            parent.detachChild(routers.remove(at: index).router)
        }
    }
}
