import City
import RIBs

/// What LocationEditor's interactor asks of its presenter.
protocol LocationEditorPresentable: AnyObject {
    var listener: (any LocationEditorPresentableListener)? { get set }
}

/// Puts the chosen pickup and dropoff into the ride's draft.
final class LocationEditorInteractor: PresentableInteractor<any LocationEditorPresentable>,
    LocationEditorPresentableListener
{
    private let ride: RideService

    init(presenter: any LocationEditorPresentable, ride: RideService) {
        self.ride = ride
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        presenter.listener = self
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func setLocations(pickup: GeoPoint, dropoff: GeoPoint) {
        ride.setLocations(pickup: pickup, dropoff: dropoff)
    }
}
