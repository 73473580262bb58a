import RIBs

/// Signed in: the Ride flow, and whatever optional plugins are on (Promotions, the inboxes of
/// shared rides and split invitations).
final class LoggedInRouter: Router<LoggedInInteractor> {
    private let ride: RideBuilder
    /// What the plugins are made from, until they are attached (then let go).
    private var plugins: (point: PluginPoint<RiderServices, any Routing>, services: RiderServices)?
    private let pluginChildren = PluginChildren()

    init(
        interactor: LoggedInInteractor, ride: RideBuilder, plugins: PluginPoint<RiderServices, any Routing>,
        services: RiderServices
    ) {
        self.ride = ride
        self.plugins = (plugins, services)
        super.init(interactor: interactor)
    }

    override func didLoad() {
        // A plugin that breaks later is detached; the ride goes on.
        if let plugins { pluginChildren.attach(plugins.point, for: plugins.services, to: self) }
        plugins = nil
        attachChild(ride.build())
    }
}
