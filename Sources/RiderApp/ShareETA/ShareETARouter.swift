import RIBs

/// Share ETA's router (no children).
final class ShareETARouter: ViewableRouter<ShareETAInteractor, ShareETAView> {}
