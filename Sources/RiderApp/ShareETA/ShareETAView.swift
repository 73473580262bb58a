import Contacts
import RIBs

/// A contact as a picker shows it.
struct ContactRow: Equatable, CustomStringConvertible {
    let id: String
    let name: String

    init(_ contact: Contact) {
        id = contact.id
        name = contact.fullName
    }

    var description: String { name }
}

/// The Share ETA screen: contacts to pick from, or whom the ride is shared with.
enum ShareETAScreen: Equatable, CustomStringConvertible {
    case choosing([ContactRow])
    case sharing(with: [String])

    var description: String {
        switch self {
        case .choosing(let rows): "Share your ETA with · " + rows.map(\.name).joined(separator: ", ")
        case .sharing(let riders): "Sharing your ETA with " + riders.joined(separator: ", ") + " · [Stop]"
        }
    }
}

/// What a user can do on the Share ETA screen.
enum ShareETAAction {
    case share(ids: [String])
    case stop
}

/// The Share ETA screen.
final class ShareETAView: View<ShareETAScreen, ShareETAAction> {}
