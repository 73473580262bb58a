import RIBs

/// The shared rides' router (no children).
final class SharedRidesRouter: ViewableRouter<SharedRidesInteractor, SharedRidesView> {}
