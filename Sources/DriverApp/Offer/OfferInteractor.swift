import RIBs

/// What Offer tells its parent.
protocol OfferListener: AnyObject {
    func answer(accept: Bool)
}

/// What Offer's interactor asks of its presenter.
protocol OfferPresentable: AnyObject {
    var listener: (any OfferPresentableListener)? { get set }
}

/// Hands the driver's answer to the parent, which owns the work.
final class OfferInteractor: PresentableInteractor<any OfferPresentable>, OfferPresentableListener {
    weak var listener: (any OfferListener)?

    override func didBecomeActive() {
        presenter.listener = self
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func answer(accept: Bool) {
        listener?.answer(accept: accept)
    }
}
