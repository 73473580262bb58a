import RIBs

/// Builds the inbox of rides other riders share with this one: Share ETA's receiving side, a
/// plugin under LoggedIn (flag `rider.share_eta`).
enum SharedRidesBuilder {
    static func plugin() -> Plugin<RiderServices, any Routing> {
        Plugin(name: ShareETABuilder.feature) { services in
            let presenter = SharedRidesPresenter()
            return SharedRidesRouter(
                interactor: SharedRidesInteractor(presenter: presenter, services: services), view: presenter.view)
        }
    }
}
