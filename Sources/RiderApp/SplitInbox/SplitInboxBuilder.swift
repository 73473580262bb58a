import RIBs

/// Builds the inbox of invitations to split other riders' fares: Split Fare's receiving side, a
/// plugin under LoggedIn (flag `rider.split_fare`).
enum SplitInboxBuilder {
    static func plugin() -> Plugin<RiderServices, any Routing> {
        Plugin(name: SplitFareBuilder.feature) { services in
            let presenter = SplitInboxPresenter()
            return SplitInboxRouter(
                interactor: SplitInboxInteractor(presenter: presenter, services: services), view: presenter.view)
        }
    }
}
