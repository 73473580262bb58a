import RIBs

/// How Ride changes the tree: asking for a ride, or on the trip.
protocol RideRouting: AnyObject {
    func routeToRequest()
    func routeToOnTrip()
}

/// Viewless: Request until a driver has the ride, then OnTrip.
final class RideInteractor: Interactor {
    weak var router: (any RideRouting)?
    private let ride: RideService

    init(ride: RideService) {
        self.ride = ride
    }

    override func didBecomeActive() {
        bindToActivePeriod(
            ride.status.observe { [unowned self] status in
                if status.hasDriver { self.router?.routeToOnTrip() } else if !status.isOver { self.router?.routeToRequest() }
            })
    }
}
