import RIBs

/// Builds the trip screen, with Rating below it at the end and the optional plugins registered
/// (Share ETA, Split Fare).
struct OnTripBuilder: Builder {
    let dependency: any RideDependency

    func build() -> OnTripRouter {
        let presenter = OnTripPresenter(status: dependency.ride.status.value)
        let plugins = PluginPoint<RiderServices, any Routing>(flags: dependency.flags)
        plugins.register(ShareETABuilder.plugin())
        plugins.register(SplitFareBuilder.plugin())
        return OnTripRouter(
            interactor: OnTripInteractor(presenter: presenter, ride: dependency.ride), view: presenter.view,
            rating: RatingBuilder(dependency: dependency), plugins: plugins, services: dependency.services)
    }
}
