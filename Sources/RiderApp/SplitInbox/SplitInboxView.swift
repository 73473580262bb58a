import RIBs

/// Open invitations to split another rider's fare.
struct SplitInboxScreen: Equatable, CustomStringConvertible {
    var open: [OpenInvitation]
    var description: String {
        open.isEmpty
            ? "No invitations to split a fare"
            : open.map { "\($0.from) asks you to split about \(Money(cents: $0.estimatedFareCents)) · [Accept] [Decline]" }
                .joined(separator: " · ")
    }
}

/// What a user can do in the split inbox.
enum SplitInboxAction { case answer(id: String, accept: Bool) }

/// The split inbox's screen.
final class SplitInboxView: View<SplitInboxScreen, SplitInboxAction> {}
