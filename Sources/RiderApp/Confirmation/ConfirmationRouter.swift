import RIBs

/// The confirmation's router (no children).
final class ConfirmationRouter: ViewableRouter<ConfirmationInteractor, ConfirmationView> {}
