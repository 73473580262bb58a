import AppRuntime
import RIBs
import SimulatedTime
import Wire

/// A ride another rider shares with this one, as last heard.
struct SharedRide: Equatable {
    let from: String
    var state: TripState
    /// When the car is due at the sharer's pickup or dropoff (simulated seconds), if known.
    var arriveAt: Double?
    var ended: Bool
}

/// An invitation to split a fare, open until answered or lapsed.
struct OpenInvitation: Equatable {
    let id: String
    let from: String
    let estimatedFareCents: Int64
    let expiresAt: Double
    let receivedAt: Double
}

/// The rider's dealings with other riders through dispatch (Share ETA, Split Fare): what it
/// sends, and what other riders' shares, invitations and the split fare bring, on streams.
/// Core code, made when first needed (see `RiderRootComponent.social`), whether or not the
/// plugins that use it are on.
final class SocialService {
    let riderID: String
    /// Riders this rider's ETA is shared with.
    let sharingWith = ModelStream<[String]>([])
    /// Riders invited to split this rider's fare.
    let invited = ModelStream<[String]>([])
    /// Rides shared with this rider, by who shares them.
    let sharedWithMe = ModelStream<[SharedRide]>([])
    /// Invitations not yet answered.
    let invitations = ModelStream<[OpenInvitation]>([])
    /// The fare split this rider pays a share of, once the ride has ended.
    let fareSplit = ModelStream<FareSplit?>(nil)
    private let link: AppLink

    init(riderID: String, link: AppLink) {
        self.riderID = riderID
        self.link = link
    }

    private var requestID: String { WireIDs.request(ofRider: riderID) }

    /// Shares this rider's ride's ETA with `riders`.
    func shareETA(with riders: [String]) {
        let added = riders.filter { !sharingWith.value.contains($0) }
        guard !added.isEmpty else { return }
        sharingWith.send(sharingWith.value + added)
        link.request(
            .shareEta(
                ShareEta.with {
                    $0.requestID = requestID
                    $0.riderID = riderID
                    $0.recipientIds = added
                }))
    }

    /// Stops sharing the ETA.
    func stopSharing() {
        guard !sharingWith.value.isEmpty else { return }
        sharingWith.send([])
        link.request(
            .shareEta(
                ShareEta.with {
                    $0.requestID = requestID
                    $0.riderID = riderID
                    $0.stop = true
                }))
    }

    /// Invites `riders` to split this rider's fare.
    func invite(_ riders: [String]) {
        let added = riders.filter { !invited.value.contains($0) }
        guard !added.isEmpty else { return }
        invited.send(invited.value + added)
        link.request(
            .splitFareInvite(
                SplitFareInvite.with {
                    $0.requestID = requestID
                    $0.riderID = riderID
                    $0.inviteeIds = added
                }))
    }

    /// Answers an open invitation.
    func answer(_ id: String, accept: Bool) {
        guard invitations.value.contains(where: { $0.id == id }) else { return }
        invitations.send(invitations.value.filter { $0.id != id })
        link.request(
            .splitAnswer(
                SplitAnswer.with {
                    $0.invitationID = id
                    $0.riderID = riderID
                    $0.accept = accept
                }))
    }

    /// What dispatch pushed: a shared ride, an invitation, a split fare.
    func receive(_ body: Envelope.OneOf_Body) {
        switch body {
        case .sharedEta(let shared) where shared.recipientID == riderID:
            var rides = sharedWithMe.value.filter { $0.from != shared.fromRiderID }
            let arriveAt = shared.arriveAtMs > 0 ? SimTime(wireMilliseconds: shared.arriveAtMs).seconds : nil
            rides.append(SharedRide(from: shared.fromRiderID, state: shared.state, arriveAt: arriveAt, ended: shared.ended))
            sharedWithMe.send(rides.sorted { $0.from < $1.from })
        case .splitInvitation(let invitation) where invitation.inviteeID == riderID:
            guard !invitations.value.contains(where: { $0.id == invitation.invitationID }) else { return }
            invitations.send(
                invitations.value + [
                    OpenInvitation(
                        id: invitation.invitationID, from: invitation.fromRiderID,
                        estimatedFareCents: invitation.estimatedFareCents,
                        expiresAt: SimTime(wireMilliseconds: invitation.expiresAtMs).seconds, receivedAt: link.now)
                ])
        case .fareSplit(let split) where split.riderID == riderID:
            fareSplit.send(split)
        default:
            break
        }
    }

    /// Whether `body` is something other riders' dealings bring (what ``receive(_:)`` takes).
    static func concerns(_ body: Envelope.OneOf_Body) -> Bool {
        switch body {
        case .sharedEta, .splitInvitation, .fareSplit: true
        default: false
        }
    }

    /// Whether `body` is one of this service's commands (its reply comes back here).
    static func isCommand(_ body: Envelope.OneOf_Body) -> Bool {
        switch body {
        case .shareEta, .splitFareInvite, .splitAnswer: true
        default: false
        }
    }

    /// Drops invitations that lapsed by `time`.
    func lapse(at time: Double) {
        let open = invitations.value.filter { $0.expiresAt > time }
        if open.count != invitations.value.count { invitations.send(open) }
    }
}
