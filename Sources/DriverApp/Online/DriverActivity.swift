import Wire

/// What the driver is doing while online, and so which child is on screen.
enum DriverActivity: Equatable {
    case idle, offer, enRoute, onTrip

    init(offer: Wire.Offer?, leg: DriveTo?) {
        if offer != nil {
            self = .offer
        } else {
            switch leg?.stop {
            case .pickup?: self = .enRoute
            case .dropoff?: self = .onTrip
            default: self = .idle
            }
        }
    }

    /// The activity's name as the screen shows it (the case's name), without `"\(activity)"`'s
    /// reflection, which looks up conformances for every render.
    var name: String {
        switch self {
        case .idle: "idle"
        case .offer: "offer"
        case .enRoute: "enRoute"
        case .onTrip: "onTrip"
        }
    }
}
