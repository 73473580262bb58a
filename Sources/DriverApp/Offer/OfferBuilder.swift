import RIBs
import Wire

/// Builds the screen of the offer dispatch made.
struct OfferBuilder: Builder {
    let dependency: any OnlineDependency

    func build(listener: any OfferListener) -> OfferRouter {
        let presenter = OfferPresenter(offer: dependency.work.openOffer ?? Wire.Offer())
        let interactor = OfferInteractor(presenter: presenter)
        interactor.listener = listener
        return OfferRouter(interactor: interactor, view: presenter.view)
    }
}
