import RIBs

/// Split Fare's router (no children).
final class SplitFareRouter: ViewableRouter<SplitFareInteractor, SplitFareView> {}
