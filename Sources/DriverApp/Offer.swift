import AppRuntime
import RIBs
import Wire

protocol OfferListener: AnyObject {
    func answer(accept: Bool)
}

/// An offer on screen: pickup ETA, fare, when it expires; accept or decline.
final class OfferView: View<OfferView.Screen, OfferView.Action> {
    struct Screen: Equatable, CustomStringConvertible {
        var requestID: String
        var pickupETA: UInt32
        var fareCents: Int64
        var expiresAt: Double
        var description: String {
            "Offer \(requestID) · pickup in \(pickupETA) s · $\(fareCents / 100).\(String(format: "%02d", fareCents % 100)) · "
                + "expires at \(Int(expiresAt)) s · [Accept] [Decline]"
        }
    }

    enum Action { case accept, decline }
}

final class OfferInteractor: ViewInteractor<OfferView.Screen, OfferView.Action> {
    weak var listener: (any OfferListener)?

    override func handle(_ action: OfferView.Action) {
        listener?.answer(accept: action == .accept)
    }
}

final class OfferRouter: ViewableRouter<OfferInteractor, OfferView> {}

final class OfferBuilder: Builder<any OnlineDependency> {
    func build(listener: any OfferListener) -> OfferRouter {
        let offer = dependency.work.offer.value ?? Wire.Offer()
        let view = OfferView(
            showing: .init(
                requestID: offer.requestID, pickupETA: offer.pickupEtaS, fareCents: offer.fareCents,
                expiresAt: offer.expiry.seconds))
        let interactor = OfferInteractor(presenter: view)
        interactor.listener = listener
        return OfferRouter(interactor: interactor, view: view)
    }
}
