import RIBs

/// The driver coming, arrived, the ride, the fare.
struct OnTripScreen: Equatable, CustomStringConvertible {
    var status: RideStatus

    var description: String {
        switch status {
        case .assigned(let driver, let eta): "\(driver) is on the way · pickup in \(eta) s · [Cancel]"
        case .arrived(let driver): "\(driver) has arrived"
        case .onTrip(let driver): "On the way with \(driver)"
        case .completed(let fare): "Arrived · fare \(Money(cents: fare))"
        default: "\(status)"
        }
    }
}

/// What a user can do on the trip screen.
enum OnTripAction { case cancel(reason: String) }

/// The trip screen.
final class OnTripView: View<OnTripScreen, OnTripAction> {}
