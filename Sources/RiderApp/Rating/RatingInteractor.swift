import RIBs

/// What Rating's interactor asks of its presenter.
protocol RatingPresentable: AnyObject {
    var listener: (any RatingPresentableListener)? { get set }
    func presentThanks(stars: UInt32)
}

/// Sends the rider's stars (1 to 5) for the trip just ended.
final class RatingInteractor: PresentableInteractor<any RatingPresentable>, RatingPresentableListener {
    private let ride: RideService

    init(presenter: any RatingPresentable, ride: RideService) {
        self.ride = ride
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        presenter.listener = self
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func rate(stars: UInt32) {
        let stars = min(5, max(1, stars))
        ride.rate(stars: stars)
        presenter.presentThanks(stars: stars)
    }
}
