/// A router for a RIB with a view.
open class ViewableRouter<InteractorType, ViewType>: Router<InteractorType> {
    /// The RIB's view, with its concrete type.
    public let viewController: ViewType
    /// The same view as a ``ViewControllable``, cast once: a person reads the screen through
    /// ``view`` many times a second, and a cast from a generic type looks its conformance up.
    private let viewControllable: (any ViewControllable)?

    /// - Precondition: `view` conforms to ``ViewControllable``.
    public init(interactor: InteractorType, view: ViewType) {
        viewController = view
        viewControllable = view as? any ViewControllable
        super.init(interactor: interactor)
    }

    open override var view: (any ViewControllable)? { viewControllable }
}
