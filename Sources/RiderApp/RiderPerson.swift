import City
import RIBs
import Randomness

/// The simulated rider behind the app: signs in, enters the trip, picks the product, confirms,
/// cancels when the pickup takes longer than their patience, and rates — through the app's views.
struct RiderPerson {
    let profile: RiderProfile
    private var random: SeededGenerator

    init(profile: RiderProfile) {
        self.profile = profile
        random = SeededGenerator(seed: profile.seed)
    }

    /// Looks at the screen at `time` and acts if there is something to do; `requestedAt` is when
    /// the ride was asked for (`nil` before). The screen is read once, and again after each act
    /// (which may change it).
    mutating func act(on root: any Routing, at time: Double, requestedAt: Double?) {
        var screen = ActiveViews(of: root)
        if let signIn = screen[LoggedOutView.self] {
            screen.perform(.signIn(name: profile.name), on: signIn)
        }
        if let editor = screen[LocationEditorView.self], time >= profile.requestAt {
            screen.perform(.set(pickup: profile.pickup, dropoff: profile.dropoff), on: editor)
        }
        if let selection = screen[ProductSelectionView.self], selection.screen.value.quotes[profile.product] != nil {
            screen.perform(.choose(profile.product), on: selection)
        }
        if let confirmation = screen[ConfirmationView.self] {
            if confirmation.screen.value.status == .drafting {
                screen.perform(.confirm, on: confirmation)
            } else if outOfPatience(at: time, requestedAt: requestedAt) {
                screen.perform(.cancel(reason: "waited longer than the rider's patience"), on: confirmation)
            }
        }
        if let trip = screen[OnTripView.self], case .assigned = trip.screen.value.status,
            outOfPatience(at: time, requestedAt: requestedAt)
        {
            screen.perform(.cancel(reason: "waited longer than the rider's patience"), on: trip)
        }
        actOnPlugins(&screen, at: time)
        if let rating = screen[RatingView.self], rating.screen.value.hasPrefix("Rate") {
            rating.perform(.rate(stars: Double.random(in: 0..<1, using: &random) < 0.8 ? 5 : 4))
        }
    }

    /// The optional features' screens: whom to share the ETA with, whom to invite to split the
    /// fare (the closest contacts, one or two), and answers to invitations once the person has
    /// thought about them. Each choice is drawn from its own generator, so that turning a feature
    /// on changes none of the person's other choices.
    private func actOnPlugins(_ screen: inout ActiveViews, at time: Double) {
        if let share = screen[ShareETAView.self], case .choosing(let rows) = share.screen.value, !rows.isEmpty {
            screen.perform(.share(ids: pick(from: rows, salt: 0x5A4E)), on: share)
        }
        if let split = screen[SplitFareView.self], case .choosing(let rows) = split.screen.value, !rows.isEmpty {
            screen.perform(.invite(ids: pick(from: rows, salt: 0x5B17)), on: split)
        }
        if let inbox = screen[SplitInboxView.self] {
            for invitation in inbox.screen.value.open where answerAt(invitation) <= time {
                screen.perform(.answer(id: invitation.id, accept: accepts(invitation)), on: inbox)
            }
        }
    }

    /// The first one or two contacts (they come closest first).
    private func pick(from rows: [ContactRow], salt: UInt64) -> [String] {
        var random = SeededGenerator(seed: profile.seed ^ salt)
        return rows.prefix(Int.random(in: 1...2, using: &random)).map(\.id)
    }

    /// When the person answers an invitation: 5 to 90 s after it came.
    private func answerAt(_ invitation: OpenInvitation) -> Double {
        var random = SeededGenerator(seed: profile.seed, for: invitation.id)
        return invitation.receivedAt + Double.random(in: 5...90, using: &random)
    }

    /// Whether the person accepts an invitation (three times in five).
    private func accepts(_ invitation: OpenInvitation) -> Bool {
        var random = SeededGenerator(seed: profile.seed ^ 0xACCE, for: invitation.id)
        return Double.random(in: 0..<1, using: &random) < 0.6
    }

    /// When the person will next answer one of `invitations`, if any is open.
    func nextAnswer(to invitations: [OpenInvitation], after time: Double) -> Double? {
        invitations.map { max(answerAt($0), time.nextUp) }.min()
    }

    /// When the person will next act of their own accord: asking for the ride, or giving up.
    func nextAction(after time: Double, requestedAt: Double?) -> Double? {
        if time < profile.requestAt { return profile.requestAt }
        return patienceEnds(requestedAt: requestedAt).flatMap { $0 > time ? $0.nextUp : nil }
    }

    private func patienceEnds(requestedAt: Double?) -> Double? {
        guard let patience = profile.patience, let requestedAt else { return nil }
        return max(requestedAt, profile.scheduledPickup ?? requestedAt) + patience
    }

    private func outOfPatience(at time: Double, requestedAt: Double?) -> Bool {
        patienceEnds(requestedAt: requestedAt).map { time > $0 } ?? false
    }
}
