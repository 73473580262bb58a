import City
import RIBs
import Wire

/// Turns the activity, the leg and the car's position into the driving screen.
final class DrivingPresenter: Presenter<DrivingView>, DrivingPresentable {
    /// The last label and what it says: a moving car is presented at every position it reports,
    /// and its leg changes far less often than that.
    private var label: (activity: DriverActivity, request: String?, text: String)?

    init(position: GeoPoint) {
        super.init(view: DrivingView(showing: DrivingScreen(activity: "", position: position)))
    }

    func present(_ activity: DriverActivity, leg: DriveTo?, position: GeoPoint) {
        let request = leg?.requestID
        let text: String
        if let label, label.activity == activity, label.request == request {
            text = label.text
        } else {
            text = Self.label(for: activity, request: request)
            label = (activity, request, text)
        }
        let screen = DrivingScreen(
            activity: text, position: position, destination: leg.map { GeoPoint($0.destination) },
            arriveAt: leg.map(\.arrival.seconds))
        // The interactor presents on the car's moves and on its legs, both at once when it starts:
        // the same screen is not shown twice.
        if screen != view.screen.value { view.render(screen) }
    }

    /// What the screen says the driver is doing (`request`: the leg's, nil without a leg).
    private static func label(for activity: DriverActivity, request: String?) -> String {
        switch activity {
        case .idle: request == nil ? "Waiting for a ride" : "Repositioning"
        case .enRoute: "To pickup \(request ?? "")"
        case .onTrip: "To dropoff \(request ?? "")"
        case .offer: "Offer"
        }
    }
}
