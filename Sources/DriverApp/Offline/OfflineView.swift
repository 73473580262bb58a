import RIBs

/// The offline screen: when the shift starts, and the button to go online.
struct OfflineScreen: Equatable, CustomStringConvertible {
    var shiftStart: Double
    var description: String { "Offline · shift starts at \(Int(shiftStart)) s · [Go online]" }
}

/// What a user can do on the offline screen.
enum OfflineAction { case goOnline }

/// The offline screen.
final class OfflineView: View<OfflineScreen, OfflineAction> {}
