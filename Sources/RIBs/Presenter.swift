/// A headless view: what a screen shows, and the actions a user can take on it.
public protocol ViewControllable: AnyObject {
    /// A one-line description of what the view shows now, for tree snapshots and the monitor.
    var screenDescription: String { get }
}

/// A view without pixels: it renders a screen model and takes user actions, so that a simulated
/// person (or a test) can read the screen and tap.
///
/// The presenter renders into it; ``perform(_:)`` is what a user does, and goes to ``onAction``,
/// which the presenter or interactor sets.
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

    /// The current screen model, described.
    open var screenDescription: String { String(describing: screen.value) }
}

/// Turns business models into view models, and view actions into interactor calls.
open class Presenter<ViewType> {
    /// The view this presenter renders into.
    public let view: ViewType

    /// A presenter that renders into `view`.
    public init(view: ViewType) {
        self.view = view
    }
}

/// An interactor with a presenter, for RIBs that have a view.
open class PresentableInteractor<PresenterType>: Interactor {
    /// The RIB's presenter.
    public let presenter: PresenterType

    /// An inactive interactor with its presenter.
    public init(presenter: PresenterType) {
        self.presenter = presenter
        super.init()
    }
}

/// A router for a RIB with a view.
open class ViewableRouter<InteractorType, ViewType>: Router<InteractorType> {
    /// The RIB's view, with its concrete type.
    public let viewController: ViewType

    /// - Precondition: `view` conforms to ``ViewControllable``.
    public init(interactor: InteractorType, view: ViewType) {
        viewController = view
        super.init(interactor: interactor)
    }

    open override var view: (any ViewControllable)? { viewController as? any ViewControllable }
}

/// An interactor whose view's actions reach ``handle(_:)`` while it is active (and are counted as
/// dropped by the view while it is not). Subclasses that override ``didBecomeActive()`` or
/// ``willResignActive()`` call `super`.
open class ViewInteractor<Screen, Action>: PresentableInteractor<View<Screen, Action>> {
    open override func didBecomeActive() {
        presenter.onAction = { [weak self] action in self?.handle(action) }
    }

    open override func willResignActive() {
        presenter.onAction = nil
    }

    /// What a user action on the view does.
    open func handle(_ action: Action) {}
}
