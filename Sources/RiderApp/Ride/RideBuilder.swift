import AppRuntime
import RIBs

/// What the Ride flow and everything below it needs: the link, the trip service, and the
/// services and flags its plugins (under OnTrip) are given.
protocol RideDependency: Dependency {
    var link: AppLink { get }
    var ride: RideService { get }
    var services: RiderServices { get }
    var flags: FeatureFlags { get }
}

/// Builds the Ride flow: Request, then OnTrip.
struct RideBuilder: Builder {
    let dependency: any RideDependency

    func build() -> RideRouter {
        RideRouter(
            interactor: RideInteractor(ride: dependency.ride), request: RequestBuilder(dependency: dependency),
            onTrip: OnTripBuilder(dependency: dependency))
    }
}
