/// What a RIB tree shares from its root down: its clock, leak detector and inspector.
/// Given to the root's `launch`; children inherit it when attached.
public final class RIBContext {
    /// Time on the tree's clock (simulated time in ribcity), since any fixed origin.
    public let now: () -> Duration
    /// Expects detached RIBs to deallocate; the owner calls `check()` on its ticks.
    public var leakDetector: LeakDetector
    /// The tree's events, for monitors and tests.
    public var inspector = Inspector()

    /// A context on the clock `now`, whose leak detector allows detached RIBs `leakBudget` to go.
    public init(leakBudget: Duration = .seconds(1), now: @escaping () -> Duration) {
        self.now = now
        leakDetector = LeakDetector(budget: leakBudget, now: now)
    }
}
