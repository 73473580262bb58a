import City
import RIBs
import Wire

/// Idle (cruising or repositioning), EnRoute (to a pickup) and OnTrip (to a dropoff): where the
/// car is and where it is going.
final class DrivingView: View<DrivingView.Screen, Never> {
    struct Screen: Equatable, CustomStringConvertible {
        var activity: String
        var position: GeoPoint
        var destination: GeoPoint?
        var arriveAt: Double?
        var description: String {
            guard let destination, let arriveAt else { return "\(activity) at \(position)" }
            return "\(activity) · at \(position) · to \(destination) by \(Int(arriveAt)) s"
        }
    }
}

/// Renders the car's position and leg as it moves.
final class DrivingInteractor: PresentableInteractor<DrivingView> {
    private let activity: DriverActivity
    private let work: WorkService
    private let vehicle: VehicleService

    init(view: DrivingView, activity: DriverActivity, work: WorkService, vehicle: VehicleService) {
        self.activity = activity
        self.work = work
        self.vehicle = vehicle
        super.init(presenter: view)
    }

    override func didBecomeActive() {
        bindToActivePeriod(vehicle.position.observe { [weak self] _ in self?.render() })
    }

    private func render() {
        let leg = work.leg.value
        let label =
            switch activity {
            case .idle: leg == nil ? "Waiting for a ride" : "Repositioning"
            case .enRoute: "To pickup \(leg?.requestID ?? "")"
            case .onTrip: "To dropoff \(leg?.requestID ?? "")"
            case .offer: "Offer"
            }
        presenter.render(
            .init(
                activity: label, position: vehicle.position.value,
                destination: leg.map { GeoPoint($0.destination) },
                arriveAt: leg.map(\.arrival.seconds)))
    }
}

final class IdleRouter: ViewableRouter<DrivingInteractor, DrivingView> {}
final class EnRouteRouter: ViewableRouter<DrivingInteractor, DrivingView> {}
final class OnTripRouter: ViewableRouter<DrivingInteractor, DrivingView> {}

final class DrivingBuilder: Builder<any OnlineDependency> {
    func build(_ activity: DriverActivity) -> any Routing {
        let view = DrivingView(showing: .init(activity: "", position: dependency.vehicle.position.value))
        let interactor = DrivingInteractor(view: view, activity: activity, work: dependency.work, vehicle: dependency.vehicle)
        switch activity {
        case .enRoute: return EnRouteRouter(interactor: interactor, view: view)
        case .onTrip: return OnTripRouter(interactor: interactor, view: view)
        case .idle, .offer: return IdleRouter(interactor: interactor, view: view)
        }
    }
}
