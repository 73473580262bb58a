import RIBs

/// Signed in: the Ride flow, and whatever optional plugins are on (Promotions).
final class LoggedInRouter: Router<LoggedInInteractor> {
    private let ride: RideBuilder
    private let plugins: PluginPoint<RideService, any Routing>
    private var pluginRouters: [String: any Routing] = [:]
    private var switchOffs: Subscription?

    init(interactor: LoggedInInteractor, ride: RideBuilder, plugins: PluginPoint<RideService, any Routing>) {
        self.ride = ride
        self.plugins = plugins
        super.init(interactor: interactor)
    }

    override func didLoad() {
        for (name, router) in plugins.outputs(for: ride.dependency.ride) {
            pluginRouters[name] = router
            attachChild(router)
        }
        attachChild(ride.build())
        // A plugin that breaks later is detached; the ride goes on.
        switchOffs = plugins.flags.observeSwitchOffs { [weak self] name, _ in
            guard let self, let router = pluginRouters.removeValue(forKey: name) else { return }
            detachChild(router)
        }
    }
}
