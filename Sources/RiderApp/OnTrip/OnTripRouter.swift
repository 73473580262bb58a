import RIBs

/// The trip screen, with whatever optional plugins are on (Share ETA, Split Fare); attaches
/// Rating once.
final class OnTripRouter: ViewableRouter<OnTripInteractor, OnTripView>, OnTripRouting {
    private let rating: RatingBuilder
    private var ratingRouter: RatingRouter?
    private let pluginChildren: PluginChildren

    init(
        interactor: OnTripInteractor, view: OnTripView, rating: RatingBuilder, plugins: PluginPoint<RiderServices, any Routing>,
        services: RiderServices
    ) {
        self.rating = rating
        pluginChildren = PluginChildren(plugins, for: services)
        super.init(interactor: interactor, view: view)
        interactor.router = self
    }

    override func didLoad() {
        // A plugin that breaks later is detached; the trip goes on.
        pluginChildren.attach(to: self)
    }

    func routeToRating() {
        guard ratingRouter == nil else { return }
        let child = rating.build()
        ratingRouter = child
        attachChild(child)
    }
}
