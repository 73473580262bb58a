import RIBs

protocol OnTripRouting: AnyObject {
    func routeToRating()
}

/// The driver coming, arrived, the ride; cancel while waiting; Rating at the end.
final class OnTripView: View<RideStatus, OnTripView.Action> {
    enum Action { case cancel(reason: String) }

    override var screenDescription: String {
        switch screen.value {
        case .assigned(let driver, let eta): "\(driver) is on the way · pickup in \(eta) s · [Cancel]"
        case .arrived(let driver): "\(driver) has arrived"
        case .onTrip(let driver): "On the way with \(driver)"
        case .completed(let fare): "Arrived · fare \(Money(cents: fare))"
        default: "\(screen.value)"
        }
    }
}

final class OnTripInteractor: ViewInteractor<RideStatus, OnTripView.Action> {
    weak var router: (any OnTripRouting)?
    private let ride: RideService

    init(view: OnTripView, ride: RideService) {
        self.ride = ride
        super.init(presenter: view)
    }

    override func didBecomeActive() {
        super.didBecomeActive()
        bindToActivePeriod(
            ride.status.observe { [weak self] status in
                self?.presenter.render(status)
                if case .completed = status { self?.router?.routeToRating() }
            })
    }

    override func handle(_ action: OnTripView.Action) {
        switch action {
        case .cancel(let reason): ride.cancel(reason: reason)
        }
    }
}

final class OnTripRouter: ViewableRouter<OnTripInteractor, OnTripView>, OnTripRouting {
    private let rating: RatingBuilder
    private var ratingRouter: RatingRouter?

    init(interactor: OnTripInteractor, view: OnTripView, rating: RatingBuilder) {
        self.rating = rating
        super.init(interactor: interactor, view: view)
        interactor.router = self
    }

    func routeToRating() {
        guard ratingRouter == nil else { return }
        let child = rating.build()
        ratingRouter = child
        attachChild(child)
    }
}

final class OnTripBuilder: Builder<any RideDependency> {
    func build() -> OnTripRouter {
        let view = OnTripView(showing: dependency.ride.status.value)
        return OnTripRouter(
            interactor: OnTripInteractor(view: view, ride: dependency.ride), view: view,
            rating: RatingBuilder(dependency: dependency))
    }
}
