import RIBs

/// How OnTrip changes the tree: Rating when the trip is over.
protocol OnTripRouting: AnyObject {
    func routeToRating()
}

/// What OnTrip's interactor asks of its presenter.
protocol OnTripPresentable: AnyObject {
    var listener: (any OnTripPresentableListener)? { get set }
    func present(_ status: RideStatus)
}

/// Follows the trip; cancels while the rider waits; Rating at the end.
final class OnTripInteractor: PresentableInteractor<any OnTripPresentable>, OnTripPresentableListener {
    weak var router: (any OnTripRouting)?
    private let ride: RideService

    init(presenter: any OnTripPresentable, ride: RideService) {
        self.ride = ride
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        presenter.listener = self
        bindToActivePeriod(
            ride.status.observe { [unowned self] status in
                self.presenter.present(status)
                if case .completed = status { self.router?.routeToRating() }
            })
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func cancel(reason: String) {
        ride.cancel(reason: reason)
    }
}
