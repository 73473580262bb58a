import City
import RIBs

/// Where the car is and where it is going.
struct DrivingScreen: Equatable, CustomStringConvertible {
    var activity: String
    var position: GeoPoint
    var destination: GeoPoint?
    var arriveAt: Double?
    var description: String {
        guard let destination, let arriveAt else { return "\(activity) at \(position)" }
        return "\(activity) · at \(position) · to \(destination) by \(Int(arriveAt)) s"
    }
}

/// The driving screen: nothing to tap.
final class DrivingView: View<DrivingScreen, Never> {}
