import RIBs

/// The offer screen's router (no children).
final class OfferRouter: ViewableRouter<OfferInteractor, OfferView> {}
