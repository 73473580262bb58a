import AppRuntime
import RIBs

/// What the Ride flow and everything below it needs: the link and the trip service.
protocol RideDependency: Dependency {
    var link: AppLink { get }
    var ride: RideService { get }
}

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
            ride.status.observe { [weak self] status in
                if status.hasDriver { self?.router?.routeToOnTrip() } else if !status.isOver { self?.router?.routeToRequest() }
            })
    }
}

final class RideRouter: Router<RideInteractor>, RideRouting {
    private let request: RequestBuilder
    private let onTrip: OnTripBuilder

    init(interactor: RideInteractor, request: RequestBuilder, onTrip: OnTripBuilder) {
        self.request = request
        self.onTrip = onTrip
        super.init(interactor: interactor)
        interactor.router = self
    }

    func routeToRequest() {
        show(RequestRouter.self) { request.build() }
    }

    func routeToOnTrip() {
        show(OnTripRouter.self) { onTrip.build() }
    }
}

final class RideBuilder: Builder<any RideDependency> {
    func build() -> RideRouter {
        RideRouter(
            interactor: RideInteractor(ride: dependency.ride), request: RequestBuilder(dependency: dependency),
            onTrip: OnTripBuilder(dependency: dependency))
    }
}
