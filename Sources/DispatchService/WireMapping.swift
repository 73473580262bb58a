import City
import RideDispatch
import Wire

/// Conversions between the engine's values and the wire protocol's.
enum WireMapping {
    static func driverState(_ state: RideDispatch.DriverState) -> Wire.DriverState {
        switch state {
        case .offline: .offline
        case .idle: .idle
        case .offered: .offered
        case .enRoute: .enRoute
        case .onTrip: .onTrip
        }
    }

    static func tripState(_ progress: RequestProgress) -> TripState {
        switch progress {
        case .scheduled: .requested
        case .waiting, .offered: .matching
        case .assigned: .driverAssigned
        case .aboard: .onTrip
        }
    }

    static func driver(of progress: RequestProgress) -> DriverID? {
        switch progress {
        case .offered(let driver), .assigned(let driver), .aboard(let driver): driver
        case .scheduled, .waiting: nil
        }
    }

    static func product(_ product: Product) -> RideDispatch.RideRequest.Product {
        product == .pool ? .pool : .standard
    }

    static func product(_ product: RideDispatch.RideRequest.Product) -> Product {
        product == .pool ? .pool : .uberX
    }

    static func party(_ party: RideDispatch.Party) -> Wire.Party {
        switch party {
        case .rider: .rider
        case .driver: .driver
        case .dispatch: .dispatch
        }
    }

}
