import RIBs

/// What a user can do on the sign-in screen.
enum LoggedOutAction { case signIn(name: String) }

/// The sign-in screen.
final class LoggedOutView: View<String, LoggedOutAction> {}
