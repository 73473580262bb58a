import RIBs

/// Signed in (viewless): its router keeps the Ride flow and the plugins that are on.
final class LoggedInInteractor: Interactor {}
