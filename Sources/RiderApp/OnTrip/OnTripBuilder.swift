import RIBs

/// Builds the trip screen, with Rating below it at the end.
final class OnTripBuilder: Builder<any RideDependency> {
    func build() -> OnTripRouter {
        let presenter = OnTripPresenter(status: dependency.ride.status.value)
        return OnTripRouter(
            interactor: OnTripInteractor(presenter: presenter, ride: dependency.ride), view: presenter.view,
            rating: RatingBuilder(dependency: dependency))
    }
}
