import RIBs

/// The rating's router (no children).
final class RatingRouter: ViewableRouter<RatingInteractor, RatingView> {}
