import AppRuntime
import RIBs

/// What LoggedIn needs from its parent: the ride's needs and the session.
protocol LoggedInDependency: RideDependency {
    var auth: AuthService { get }
}

/// Builds the signed-in part of the app, with the optional plugins registered: Promotions, and
/// the receiving sides of Share ETA and Split Fare.
struct LoggedInBuilder: Builder {
    let dependency: any LoggedInDependency

    func build() -> LoggedInRouter {
        let plugins = PluginPoint<RiderServices, any Routing>(flags: dependency.flags)
        plugins.register(PromotionsBuilder.plugin())
        plugins.register(SharedRidesBuilder.plugin())
        plugins.register(SplitInboxBuilder.plugin())
        return LoggedInRouter(
            interactor: LoggedInInteractor(), ride: RideBuilder(dependency: dependency), plugins: plugins,
            services: dependency.services)
    }
}
