import RIBs

/// The promotions banner's router (no children).
final class PromotionsRouter: ViewableRouter<PromotionsInteractor, PromotionsView> {}
