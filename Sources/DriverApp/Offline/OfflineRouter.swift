import RIBs

/// The offline screen's router (no children).
final class OfflineRouter: ViewableRouter<OfflineInteractor, OfflineView> {}
