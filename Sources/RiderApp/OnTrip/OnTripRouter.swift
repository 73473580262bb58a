import RIBs

/// The trip screen, with whatever optional plugins are on (Share ETA, Split Fare); attaches
/// Rating once.
final class OnTripRouter: ViewableRouter<OnTripInteractor, OnTripView>, OnTripRouting {
    private let rating: RatingBuilder
    private var ratingRouter: RatingRouter?
    /// What the plugins are made from, until they are attached (then let go).
    private var plugins: (point: PluginPoint<RiderServices, any Routing>, services: RiderServices)?
    private let pluginChildren = PluginChildren()

    init(
        interactor: OnTripInteractor, view: OnTripView, rating: RatingBuilder, plugins: PluginPoint<RiderServices, any Routing>,
        services: RiderServices
    ) {
        self.rating = rating
        self.plugins = (plugins, services)
        super.init(interactor: interactor, view: view)
        interactor.router = self
    }

    override func didLoad() {
        // A plugin that breaks later is detached; the trip goes on.
        if let plugins { pluginChildren.attach(plugins.point, for: plugins.services, to: self) }
        plugins = nil
    }

    func routeToRating() {
        guard ratingRouter == nil else { return }
        let child = rating.build()
        ratingRouter = child
        attachChild(child)
    }
}
