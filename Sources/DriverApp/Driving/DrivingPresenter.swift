import City
import RIBs
import Wire

/// Turns the activity, the leg and the car's position into the driving screen.
final class DrivingPresenter: Presenter<DrivingView>, DrivingPresentable {
    init(position: GeoPoint) {
        super.init(view: DrivingView(showing: DrivingScreen(activity: "", position: position)))
    }

    func present(_ activity: DriverActivity, leg: DriveTo?, position: GeoPoint) {
        let label =
            switch activity {
            case .idle: leg == nil ? "Waiting for a ride" : "Repositioning"
            case .enRoute: "To pickup \(leg?.requestID ?? "")"
            case .onTrip: "To dropoff \(leg?.requestID ?? "")"
            case .offer: "Offer"
            }
        view.render(
            DrivingScreen(
                activity: label, position: position, destination: leg.map { GeoPoint($0.destination) },
                arriveAt: leg.map(\.arrival.seconds)))
    }
}
