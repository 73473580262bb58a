import RIBs

/// The sign-in screen's router (no children).
final class LoggedOutRouter: ViewableRouter<LoggedOutInteractor, LoggedOutView> {}
