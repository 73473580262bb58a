import RIBs
import Wire

/// The ride chosen, its price, and the button to ask for it; then "finding a driver" and cancel.
struct ConfirmationScreen: Equatable, CustomStringConvertible {
    /// What the screen shows of a quote (not the whole message: a screen per waiting rider).
    struct Price: Equatable {
        var cents: Int64
        var surge: Double
    }

    var product: Wire.Product?
    var price: Price?
    var status: RideStatus

    var description: String {
        let price = price.map { " · \(Money(cents: $0.cents)) ×\($0.surge) surge" } ?? ""
        let name = product == .pool ? "POOL" : "UberX"
        switch status {
        case .drafting: return "\(name)\(price) · [Confirm]"
        case .requesting, .matching: return "\(name)\(price) · finding a driver… · [Cancel]"
        default: return "\(name) · \(status)"
        }
    }
}

/// What a user can do on the confirmation screen.
enum ConfirmationAction { case confirm, cancel(reason: String) }

/// The confirmation screen.
final class ConfirmationView: View<ConfirmationScreen, ConfirmationAction> {}
