import RIBs

/// Signed in: the Ride flow, and whatever optional plugins are on (Promotions, the inboxes of
/// shared rides and split invitations).
final class LoggedInRouter: Router<LoggedInInteractor> {
    private let ride: RideBuilder
    private let pluginChildren: PluginChildren

    init(
        interactor: LoggedInInteractor, ride: RideBuilder, plugins: PluginPoint<RiderServices, any Routing>,
        services: RiderServices
    ) {
        self.ride = ride
        pluginChildren = PluginChildren(plugins, for: services)
        super.init(interactor: interactor)
    }

    override func didLoad() {
        // A plugin that breaks later is detached; the ride goes on.
        pluginChildren.attach(to: self)
        attachChild(ride.build())
    }
}
