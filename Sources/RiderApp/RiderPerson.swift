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
    /// the ride was asked for (`nil` before).
    mutating func act(on root: any Routing, at time: Double, requestedAt: Double?) {
        if let signIn = root.activeView(of: LoggedOutView.self) {
            signIn.perform(.signIn(name: profile.name))
        }
        if let editor = root.activeView(of: LocationEditorView.self), time >= profile.requestAt {
            editor.perform(.set(pickup: profile.pickup, dropoff: profile.dropoff))
        }
        if let selection = root.activeView(of: ProductSelectionView.self), selection.screen.value.quotes[profile.product] != nil {
            selection.perform(.choose(profile.product))
        }
        if let confirmation = root.activeView(of: ConfirmationView.self) {
            if confirmation.screen.value.status == .drafting {
                confirmation.perform(.confirm)
            } else if outOfPatience(at: time, requestedAt: requestedAt) {
                confirmation.perform(.cancel(reason: "waited longer than the rider's patience"))
            }
        }
        if let trip = root.activeView(of: OnTripView.self), case .assigned = trip.screen.value.status,
            outOfPatience(at: time, requestedAt: requestedAt)
        {
            trip.perform(.cancel(reason: "waited longer than the rider's patience"))
        }
        if let rating = root.activeView(of: RatingView.self), rating.screen.value.hasPrefix("Rate") {
            rating.perform(.rate(stars: Double.random(in: 0..<1, using: &random) < 0.8 ? 5 : 4))
        }
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
