import City
import RIBs

/// What the user asked for on the location editor.
protocol LocationEditorPresentableListener: AnyObject {
    func setLocations(pickup: GeoPoint, dropoff: GeoPoint)
}

/// Shows the "where to?" form; passes the chosen places on.
final class LocationEditorPresenter: Presenter<LocationEditorView>, LocationEditorPresentable {
    weak var listener: (any LocationEditorPresentableListener)?

    init() {
        super.init(view: LocationEditorView(showing: "Where to? · [pickup] [dropoff]"))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    private func handle(_ action: LocationEditorAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .set(let pickup, let dropoff): listener.setLocations(pickup: pickup, dropoff: dropoff)
        }
    }
}
