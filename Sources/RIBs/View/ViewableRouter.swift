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
