import City
import RIBs
import Wire

/// What Driving's interactor asks of its presenter.
protocol DrivingPresentable: AnyObject {
    func present(_ activity: DriverActivity, leg: DriveTo?, position: GeoPoint)
}

/// Follows the car's position and its leg as it moves.
final class DrivingInteractor: PresentableInteractor<any DrivingPresentable> {
    private let activity: DriverActivity
    private let work: WorkService
    private let vehicle: VehicleService

    init(presenter: any DrivingPresentable, activity: DriverActivity, work: WorkService, vehicle: VehicleService) {
        self.activity = activity
        self.work = work
        self.vehicle = vehicle
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        bindToActivePeriod(vehicle.position.observe { [unowned self] _ in present() })
        // A new leg of the same kind (a second rider's pickup on a shared ride) keeps this RIB:
        // the screen names its request at once, not when the car next moves.
        bindToActivePeriod(work.leg.observe { [unowned self] _ in present() })
    }

    private func present() {
        presenter.present(activity, leg: work.currentLeg, position: vehicle.position.value)
    }
}
