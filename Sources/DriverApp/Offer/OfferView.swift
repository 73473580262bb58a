import RIBs

/// An offer on screen: pickup ETA, fare, when it expires; accept or decline.
struct OfferScreen: Equatable, CustomStringConvertible {
    var requestID: String
    var pickupETA: UInt32
    var fareCents: Int64
    var expiresAt: Double
    var description: String {
        "Offer \(requestID) · pickup in \(pickupETA) s · $\(fareCents / 100).\(String(format: "%02d", fareCents % 100)) · "
            + "expires at \(Int(expiresAt)) s · [Accept] [Decline]"
    }
}

/// What a user can do on the offer screen.
enum OfferAction { case accept, decline }

/// The offer screen.
final class OfferView: View<OfferScreen, OfferAction> {}
