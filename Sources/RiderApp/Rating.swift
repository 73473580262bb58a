import RIBs

/// Stars for the trip just ended.
final class RatingView: View<String, RatingView.Action> {
    enum Action { case rate(stars: UInt32) }
}

final class RatingInteractor: ViewInteractor<String, RatingView.Action> {
    private let ride: RideService

    init(view: RatingView, ride: RideService) {
        self.ride = ride
        super.init(presenter: view)
    }

    override func handle(_ action: RatingView.Action) {
        switch action {
        case .rate(let stars):
            ride.rate(stars: min(5, max(1, stars)))
            presenter.render("Thanks for rating \(min(5, max(1, stars))) stars")
        }
    }
}

final class RatingRouter: ViewableRouter<RatingInteractor, RatingView> {}

final class RatingBuilder: Builder<any RideDependency> {
    func build() -> RatingRouter {
        let view = RatingView(showing: "Rate your trip · [1-5 stars]")
        return RatingRouter(interactor: RatingInteractor(view: view, ride: dependency.ride), view: view)
    }
}
