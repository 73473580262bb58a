import RIBs

/// What every app actor holds: its link to dispatch and time, its tree, and the tree's context
/// (clock on simulated time, leak detector). The app's calls go through here, so each answers
/// its host the same way.
///
/// Not `Sendable`: it lives on its app's actor.
public final class AppTree {
    public let link: AppLink
    public let root: any LaunchRouting
    public let context: RIBContext

    /// A tree not launched yet, on a link whose clock reads `link.now`.
    public init(root: any LaunchRouting, link: AppLink) {
        self.root = root
        self.link = link
        context = RIBContext { .milliseconds(Int64(link.now * 1000)) }
    }

    /// Moves the clock to `time` and launches the tree.
    public func launch(at time: Double) {
        link.advance(to: time)
        root.launch(context: context)
    }

    /// What the app answers after an input: what it sent, whether it is done, when it next
    /// wants a tick. Detached RIBs are checked for leaks on the way.
    public func output(finished: Bool = false, wakeAt: Double? = nil) -> AppOutput {
        context.leakDetector.check()
        return AppOutput(messages: link.drain(), finished: finished, wakeAt: wakeAt)
    }

    /// The tree's health now.
    /// How many of the tree's RIBs leaked so far.
    public var leakCount: Int { context.leakDetector.leakCount }

    public func health() -> AppHealth {
        let tree = root.snapshot()
        return AppHealth(leaks: context.leakDetector.leakCount, ribs: tree.count, droppedActions: 0, screen: tree.deepestScreen)
    }
}
