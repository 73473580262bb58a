/// Turns business models into view models, and view actions into interactor calls.
///
/// The seam between a RIB's logic and its view: an interactor knows its presenter only through
/// the RIB's `…Presentable` protocol (what to show, in business terms), and the presenter knows
/// its interactor only through the RIB's `…PresentableListener` protocol (what the user asked for).
/// The interactor sets itself as the listener while it is active; actions that arrive while it is
/// not are dropped and counted (``View/drop(_:)``).
open class Presenter<ViewType> {
    /// The view this presenter renders into.
    public let view: ViewType

    /// A presenter that renders into `view`.
    public init(view: ViewType) {
        self.view = view
    }
}
