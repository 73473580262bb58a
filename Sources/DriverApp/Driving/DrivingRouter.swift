import RIBs

/// Driving while no ride is on: waiting or repositioning.
final class IdleRouter: ViewableRouter<DrivingInteractor, DrivingView> {}
/// Driving to a pickup.
final class EnRouteRouter: ViewableRouter<DrivingInteractor, DrivingView> {}
/// Driving a rider to the dropoff.
final class OnTripRouter: ViewableRouter<DrivingInteractor, DrivingView> {}
