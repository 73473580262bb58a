/// When pages get their next frame: at once when the city changes after a quiet spell, and
/// otherwise gathered so that frames go out at most one per `gap` — all waiting pages at the same
/// instant, so pages in step share one frame. Times in, actions out; no clock, no tasks.
struct FramePacer: Sendable {
    /// The shortest time between two frames.
    let gap: Duration
    private var lastSent: Duration?
    private var scheduled = false

    enum Action: Equatable {
        /// Send the frames now.
        case sendNow
        /// Send them at this time (call ``fired(at:)`` then).
        case sendAt(Duration)
        /// A send is already due; nothing to do.
        case none
    }

    init(gap: Duration) {
        self.gap = gap
    }

    /// The city changed at `now` (time since any fixed origin, never going down).
    mutating func changed(at now: Duration) -> Action {
        if scheduled { return .none }
        if let lastSent, now < lastSent + gap {
            scheduled = true
            return .sendAt(lastSent + gap)
        }
        lastSent = now
        return .sendNow
    }

    /// The send asked for by ``Action/sendAt(_:)`` happens at `now`.
    mutating func fired(at now: Duration) {
        assert(scheduled, "a frame send fired that was never scheduled")
        scheduled = false
        lastSent = now
    }
}
