import RIBs

/// Builds the rating screen.
struct RatingBuilder: Builder {
    let dependency: any RideDependency

    func build() -> RatingRouter {
        let presenter = RatingPresenter()
        return RatingRouter(interactor: RatingInteractor(presenter: presenter, ride: dependency.ride), view: presenter.view)
    }
}
