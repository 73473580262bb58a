import RIBs

/// Builds Split Fare, the plugin under OnTrip (flag `rider.split_fare`).
enum SplitFareBuilder {
    static let feature = "rider.split_fare"
    /// How many contacts a rider may invite to split one fare.
    static let limit = 3

    static func plugin() -> Plugin<RiderServices, any Routing> {
        Plugin(name: feature) { services in
            try services.faults.checkBuild(of: feature)
            let presenter = SplitFarePresenter()
            return SplitFareRouter(
                interactor: SplitFareInteractor(presenter: presenter, services: services), view: presenter.view)
        }
    }
}
