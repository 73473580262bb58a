import RIBs
import Wire

/// What the user asked for on the offer screen.
protocol OfferPresentableListener: AnyObject {
    func answer(accept: Bool)
}

/// Turns dispatch's offer into the offer screen; passes the answer on.
final class OfferPresenter: Presenter<OfferView>, OfferPresentable {
    weak var listener: (any OfferPresentableListener)?

    init(offer: Wire.Offer) {
        super.init(
            view: OfferView(
                showing: OfferScreen(
                    requestID: offer.requestID, pickupETA: offer.pickupEtaS, fareCents: offer.fareCents,
                    expiresAt: offer.expiry.seconds)))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    private func handle(_ action: OfferAction) {
        guard let listener else { return view.drop(action) }
        listener.answer(accept: action == .accept)
    }
}
