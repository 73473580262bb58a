import RIBs

/// Builds Share ETA, the plugin under OnTrip (flag `rider.share_eta`).
enum ShareETABuilder {
    static let feature = "rider.share_eta"
    /// How many contacts a rider may share one ride with.
    static let limit = 3

    static func plugin() -> Plugin<RiderServices, any Routing> {
        Plugin(name: feature) { services in
            try services.faults.checkBuild(of: feature)
            let presenter = ShareETAPresenter()
            return ShareETARouter(interactor: ShareETAInteractor(presenter: presenter, services: services), view: presenter.view)
        }
    }
}
