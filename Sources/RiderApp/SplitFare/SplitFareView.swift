import RIBs

/// The Split Fare screen: contacts to invite, the invited, or the rider's share at the end.
enum SplitFareScreen: Equatable, CustomStringConvertible {
    case choosing([ContactRow])
    case invited([String])
    case settled(share: Int64, fare: Int64, payers: Int)

    var description: String {
        switch self {
        case .choosing(let rows): "Split the fare with · " + rows.map(\.name).joined(separator: ", ")
        case .invited(let riders): "Invited to split: " + riders.joined(separator: ", ")
        case .settled(let share, let fare, let payers):
            "Your share \(Money(cents: share)) of \(Money(cents: fare)), split \(payers) ways"
        }
    }
}

/// What a user can do on the Split Fare screen.
enum SplitFareAction { case invite(ids: [String]) }

/// The Split Fare screen.
final class SplitFareView: View<SplitFareScreen, SplitFareAction> {}
