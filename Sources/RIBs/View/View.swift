/// A headless view: what a screen shows, and the actions a user can take on it.
public protocol ViewControllable: AnyObject {
    /// A one-line description of what the view shows now, for tree snapshots and the monitor.
    var screenDescription: String { get }
}

/// A view without pixels: it renders a screen model and takes user actions, so that a simulated
/// person (or a test) can read the screen and tap.
///
/// The presenter renders into it; ``perform(_:)`` is what a user does, and goes to ``onAction``,
/// which the presenter sets.
open class View<Screen, Action>: ViewControllable {
    /// What the view shows; observable, so that tests and the monitor can follow it.
    public let screen: ModelStream<Screen>
    /// Where user actions go.
    public var onAction: ((Action) -> Void)?
    /// How many actions arrived while nobody listened (a wiring bug, made visible).
    public private(set) var droppedActions = 0

    /// A view showing `initial`, with nobody listening to its actions yet.
    public init(showing initial: Screen) {
        screen = ModelStream(initial)
    }

    /// Shows a new screen model.
    public final func render(_ model: Screen) {
        screen.send(model)
    }

    /// Takes a user action.
    public final func perform(_ action: Action) {
        guard let onAction else {
            droppedActions += 1
            return
        }
        onAction(action)
    }

    /// Counts an action that reached a presenter with nobody to tell (its interactor inactive).
    public final func drop(_ action: Action) {
        droppedActions += 1
    }

    /// The current screen model, described.
    open var screenDescription: String { String(describing: screen.value) }
}
