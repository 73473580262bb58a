import City
import RIBs

/// Where from and where to.
final class LocationEditorView: View<String, LocationEditorView.Action> {
    enum Action { case set(pickup: GeoPoint, dropoff: GeoPoint) }
}

final class LocationEditorInteractor: ViewInteractor<String, LocationEditorView.Action> {
    private let ride: RideService

    init(view: LocationEditorView, ride: RideService) {
        self.ride = ride
        super.init(presenter: view)
    }

    override func handle(_ action: LocationEditorView.Action) {
        switch action {
        case .set(let pickup, let dropoff): ride.setLocations(pickup: pickup, dropoff: dropoff)
        }
    }
}

final class LocationEditorRouter: ViewableRouter<LocationEditorInteractor, LocationEditorView> {}

final class LocationEditorBuilder: Builder<any RideDependency> {
    func build() -> LocationEditorRouter {
        let view = LocationEditorView(showing: "Where to? · [pickup] [dropoff]")
        return LocationEditorRouter(interactor: LocationEditorInteractor(view: view, ride: dependency.ride), view: view)
    }
}
