import RIBs

/// The split inbox's router (no children).
final class SplitInboxRouter: ViewableRouter<SplitInboxInteractor, SplitInboxView> {}
