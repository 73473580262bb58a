/// The root router: launched once, it activates the root interactor and loads the tree.
open class LaunchRouter<InteractorType>: Router<InteractorType> {
    /// Starts the app: activates the root and loads it.
    /// - Parameter context: the clock, leak detector and inspector the whole tree shares.
    public final func launch(context: RIBContext? = nil) {
        adopt(parent: nil, context: context)
        load()
        interactable.activate()
    }
}

/// A root that can be launched: what an app's host needs of its tree.
public protocol LaunchRouting: Routing {
    /// Starts the app: activates the root and loads it, with the tree's shared context.
    func launch(context: RIBContext?)
}

extension LaunchRouter: LaunchRouting {}
