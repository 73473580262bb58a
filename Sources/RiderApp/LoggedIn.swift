import AppRuntime
import RIBs

protocol LoggedInDependency: RideDependency {
    var auth: AuthService { get }
    var flags: FeatureFlags { get }
}

/// Signed in: the Ride flow, and whatever optional plugins are on (Promotions).
final class LoggedInInteractor: Interactor {}

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

final class LoggedInBuilder: Builder<any LoggedInDependency> {
    func build() -> LoggedInRouter {
        let plugins = PluginPoint<RideService, any Routing>(flags: dependency.flags)
        plugins.register(PromotionsBuilder.plugin())
        return LoggedInRouter(interactor: LoggedInInteractor(), ride: RideBuilder(dependency: dependency), plugins: plugins)
    }
}
