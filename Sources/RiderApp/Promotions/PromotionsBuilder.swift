import RIBs

/// Builds the Promotions plugin.
enum PromotionsBuilder {
    /// The plugin, under its flag (`rider.promotions`).
    static func plugin() -> Plugin<RideService, any Routing> {
        Plugin(name: "rider.promotions") { ride in
            let presenter = PromotionsPresenter()
            return PromotionsRouter(interactor: PromotionsInteractor(presenter: presenter, ride: ride), view: presenter.view)
        }
    }
}
