import AppRuntime
import RIBs

/// What LoggedIn needs from its parent: the ride's needs, the session and the feature flags.
protocol LoggedInDependency: RideDependency {
    var auth: AuthService { get }
    var flags: FeatureFlags { get }
}

/// Builds the signed-in part of the app, with the optional plugins registered.
final class LoggedInBuilder: Builder<any LoggedInDependency> {
    func build() -> LoggedInRouter {
        let plugins = PluginPoint<RideService, any Routing>(flags: dependency.flags)
        plugins.register(PromotionsBuilder.plugin())
        return LoggedInRouter(interactor: LoggedInInteractor(), ride: RideBuilder(dependency: dependency), plugins: plugins)
    }
}
