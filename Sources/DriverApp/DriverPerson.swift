import City
import RIBs
import Randomness

/// The simulated driver behind the app: goes online when the shift starts, off when it ends (after
/// the ride in progress), and answers offers after thinking it over — all through the app's views.
struct DriverPerson {
    let profile: DriverProfile
    private var random: SeededGenerator
    /// The offer being considered: when it appeared, and the decision already drawn.
    private var considering: (requestID: String, since: Double, accept: Bool)?

    init(profile: DriverProfile) {
        self.profile = profile
        random = SeededGenerator(seed: profile.seed)
    }

    /// Looks at the screen at `time` (read once) and acts if there is something to do.
    mutating func act(on root: any Routing, at time: Double) {
        let onShift = time >= profile.shiftStart && time < profile.shiftEnd
        let screen = ActiveViews(of: root)
        if let offline = screen[OfflineView.self] {
            if onShift { offline.perform(.goOnline) }
            return
        }
        if let offer = screen[OfferView.self] {
            let shown = offer.screen.value
            if considering?.requestID != shown.requestID {
                considering = (shown.requestID, time, Double.random(in: 0..<1, using: &random) < profile.acceptance)
            }
            // The same sum as the wake-up's (`nextAction`): `time - since` can round below the
            // response time when the person is woken exactly at it, and would never answer.
            if let decision = considering, time >= decision.since + profile.responseSeconds {
                offer.perform(decision.accept ? .accept : .decline)
                considering = nil
            }
            return
        }
        considering = nil
        if !onShift, screen[DrivingView.self]?.screen.value.arriveAt == nil,
            let online = screen[OnlineView.self]
        {
            online.perform(.goOffline)
        }
    }

    /// When the person will next act of their own accord: an answer due, the shift's start or end.
    func nextAction(after time: Double) -> Double? {
        [considering.map { $0.since + profile.responseSeconds }, profile.shiftStart, profile.shiftEnd]
            .compactMap { $0 }.filter { $0 > time && $0.isFinite }.min()
    }
}
