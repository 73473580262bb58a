import RideDispatch

/// What riders' optional features keep in dispatch: whose ETA each ride shares with, and the
/// fare splits being arranged. Invitation names come from a counter that never goes back.
struct RideSharing: Codable {
    /// A split being arranged for one ride: who asked, who was invited and what each answered.
    struct Split: Equatable, Codable {
        let inviter: String
        /// Invitees in the order they were invited; nil: no answer yet.
        var answers: [Answer]
        /// When unanswered invitations lapse (simulated seconds).
        var expires: Double

        /// Who pays: the inviter first, then every invitee who accepted, in invitation order.
        var payers: [String] { [inviter] + answers.filter { $0.accepted == true }.map(\.rider) }
    }

    /// A rider invited to split a fare, and their answer (none yet: `nil`).
    struct Answer: Equatable, Codable {
        let rider: String
        var accepted: Bool?
    }

    /// An invitation sent: its ride and invitee.

    struct Invitation: Equatable, Codable {
        let request: RequestID
        let invitee: String
    }

    /// Riders each ride's ETA goes to, in the order they were added.
    var shares: [RequestID: [String]] = [:]
    var splits: [RequestID: Split] = [:]
    var invitations: [String: Invitation] = [:]
    private var issued = 0

    /// How long an invitee has to answer (simulated seconds).
    static let answerWindow: Double = 180

    /// A new invitation's name.
    mutating func invitationName() -> String {
        issued += 1
        return "split-\(issued)"
    }

    /// The ride ended: its share and split are over (the split's invitations answer nothing now).
    mutating func end(_ request: RequestID) {
        shares[request] = nil
        if splits.removeValue(forKey: request) != nil {
            invitations = invitations.filter { $0.value.request != request }
        }
    }

    /// `fareCents` in shares among `payers`: equal, with the cents that do not divide going one
    /// each to the first payers, so the shares sum to the fare exactly.
    static func shares(of fareCents: Int64, among payers: [String]) -> [(rider: String, cents: Int64)] {
        guard !payers.isEmpty else { return [] }
        let count = Int64(payers.count)
        let base = fareCents / count
        let left = fareCents - base * count
        return payers.enumerated().map { index, rider in (rider, base + (Int64(index) < left ? 1 : 0)) }
    }
}
