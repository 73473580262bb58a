import RIBs

/// Rides other riders share with this one, a line each.
struct SharedRidesScreen: Equatable, CustomStringConvertible {
    var lines: [String]
    var description: String { lines.isEmpty ? "No rides shared with you" : lines.joined(separator: " · ") }
}

/// The shared rides' screen: nothing to tap.
final class SharedRidesView: View<SharedRidesScreen, Never> {}
