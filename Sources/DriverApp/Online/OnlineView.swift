import RIBs

/// The online screen's frame: status and the button to go offline.
struct OnlineScreen: Equatable, CustomStringConvertible {
    var status: String
    var description: String { "Online · \(status) · [Go offline]" }
}

/// What a user can do on the online screen.
enum OnlineAction { case goOffline }

/// The online screen.
final class OnlineView: View<OnlineScreen, OnlineAction> {}
