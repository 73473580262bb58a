import RIBs
import Wire

/// Turns the shared rides into their lines.
final class SharedRidesPresenter: Presenter<SharedRidesView>, SharedRidesPresentable {
    init() {
        super.init(view: SharedRidesView(showing: SharedRidesScreen(lines: [])))
    }

    func present(_ rides: [SharedRide], at time: Double) {
        let lines = rides.map { ride -> String in
            if ride.ended { return "\(ride.from)'s ride has ended" }
            let due = ride.arriveAt.map { " in \(Int(max(0, $0 - time).rounded())) s" } ?? ""
            switch ride.state {
            case .driverAssigned: return "\(ride.from)'s car is on the way · pickup\(due)"
            case .driverArrived: return "\(ride.from)'s car has arrived"
            case .onTrip: return "\(ride.from) is on the way · arriving\(due)"
            default: return "\(ride.from) is waiting for a car"
            }
        }
        let screen = SharedRidesScreen(lines: lines)
        if screen != view.screen.value { view.render(screen) }
    }
}
