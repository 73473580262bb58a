import AppRuntime
import RIBs

/// What the Ride flow and everything below it needs: the link and the trip service.
protocol RideDependency: Dependency {
    var link: AppLink { get }
    var ride: RideService { get }
}

/// Builds the Ride flow: Request, then OnTrip.
final class RideBuilder: Builder<any RideDependency> {
    func build() -> RideRouter {
        RideRouter(
            interactor: RideInteractor(ride: dependency.ride), request: RequestBuilder(dependency: dependency),
            onTrip: OnTripBuilder(dependency: dependency))
    }
}
