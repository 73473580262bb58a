import RIBs

/// Builds the Promotions plugin.
enum PromotionsBuilder {
    /// The plugin, under its flag (`rider.promotions`).
    static func plugin() -> Plugin<RiderServices, any Routing> {
        Plugin(name: "rider.promotions") { services in
            let presenter = PromotionsPresenter()
            return PromotionsRouter(
                interactor: PromotionsInteractor(presenter: presenter, ride: services.ride), view: presenter.view)
        }
    }
}
