/// What a parent sees of a child RIB: its router.
public protocol Routing: AnyObject {
    /// The RIB's interactor.
    var interactable: any Interactable { get }
    /// Whether the RIB's interactor is active: what `interactable.isActive` says, without
    /// handing out the interactor (a retain, through its side table when something holds it
    /// weakly — on every walk of the tree, each tick of a simulated person).
    var isActive: Bool { get }
    /// The attached children, in attachment order.
    var children: [any Routing] { get }
    /// A short name for the RIB (the type name without "Router" by default), for paths and trees.
    var name: String { get }
    /// Where the RIB sits: its ancestors' names and its own, e.g. `/Root/LoggedIn`.
    var path: String { get }
    /// The RIB's view, or `nil` for a viewless RIB.
    var view: (any ViewControllable)? { get }
    /// Loads the router once: calls `didLoad`, where a router attaches its permanent children.
    func load()
    /// Attaches a child: it becomes part of the tree, is loaded, and its subtree is activated
    /// when this router's interactor is active.
    func attachChild(_ child: any Routing)
    /// Detaches a child and deactivates its subtree.
    func detachChild(_ child: any Routing)
    /// Activates or deactivates this RIB and everything below it.
    func setSubtreeActive(_ active: Bool)
}

/// Attaches and detaches child RIBs, forming the app as a tree, and drives its interactor.
///
/// Routing follows business logic: the interactor decides, the router changes the tree.
/// A router follows its interactor's active state with its whole subtree, and a router that is
/// released deactivates and detaches everything below it.
open class Router<InteractorType>: Routing {
    // Stored properties are few and ordered largest first: thousands of trees per process.
    public let interactable: any Interactable
    public private(set) var children: [any Routing] = []
    /// The router this one is attached to. Unowned, so that no router needs a side table for
    /// weak references: a parent clears it when it detaches the child and before it goes.
    private unowned var parent: (any Routing)?
    /// The tree's clock, leak detector and inspector, inherited from the parent on attach.
    public private(set) var context: RIBContext?
    /// Following an interactor that is not an ``Interactor`` (which tells its router directly).
    private var activeStateSubscription: Subscription?
    /// Which child ``show(_:)`` shows (it is one of `children`).
    private var shownChild: ObjectIdentifier?
    private var didLoadOnce = false
    private var didReportActive = false

    /// The interactor, with its concrete type.
    public var interactor: InteractorType { interactable as! InteractorType }

    /// - Precondition: `interactor` conforms to ``Interactable``.
    public init(interactor: InteractorType) {
        guard let interactable = interactor as? any Interactable else {
            preconditionFailure("\(InteractorType.self) must conform to Interactable")
        }
        self.interactable = interactable
    }

    deinit {
        (interactable as? Interactor)?.follower = nil
        interactable.deactivate()
        for child in children {
            // First: the child's deactivation events name its path, and this router is going.
            (child as? any TreeNode)?.orphan()
            child.setSubtreeActive(false)
        }
        children.removeAll()
    }

    public final var isActive: Bool { interactable.isActive }

    public var path: String { (parent?.path ?? "") + "/" + name }

    open var view: (any ViewControllable)? { nil }

    open var name: String {
        // The runtime's name of the type, not `String(describing:)`, which first looks for the
        // metatype's conformances to the printing protocols (a lookup each, on every detach).
        // Cut by its UTF-8 bytes, not by characters, which grapheme breaking would find (a
        // name is made at every detach, for the leak detector's path).
        let full = _typeName(type(of: self), qualified: false)
        var base = full.utf8[..<(full.utf8.firstIndex(of: UInt8(ascii: "<")) ?? full.utf8.endIndex)]
        let suffix = "Router".utf8
        if base.count > suffix.count, base.suffix(suffix.count).elementsEqual(suffix) { base = base.dropLast(suffix.count) }
        return String(Substring(base))
    }

    public final func load() {
        guard !didLoadOnce else { return }
        didLoadOnce = true
        if let interactor = interactable as? Interactor {
            interactor.follower = self
            if interactor.isActive { interactorDidChange(active: true) }
        } else {
            activeStateSubscription = interactable.isActiveStream.observe { [weak self] active in
                self?.interactorDidChange(active: active)
            }
        }
        didLoad()
    }

    func interactorDidChange(active: Bool) {
        // Only real changes are events (a stream replays `false` at once).
        if active || didReportActive {
            didReportActive = active
            record(active ? .activated : .deactivated)
        }
        children.forEach { $0.setSubtreeActive(active) }
    }

    /// Called once, on the first `load()`. Attach permanent children here.
    open func didLoad() {}

    /// Attaches `child` below this router. Attaching a child twice, or one that another router
    /// holds, is a wiring mistake: it stops a debug build (as RIBs-iOS asserts), and is ignored in
    /// a release build.
    public final func attachChild(_ child: any Routing) {
        guard !children.contains(where: { $0 === child }) else {
            assertionFailure("\(path): \(child.path) is attached here already")
            return
        }
        // Cast once: each cast to a protocol is a look-up in the runtime's conformance cache.
        let node = child as? any TreeNode
        if let holder = node?.attachedParent, holder !== self {
            assertionFailure("\(path): \(child.path) is attached to \(holder.path) already; detach it there first")
            return
        }
        children.append(child)
        node?.adopt(parent: self, context: context)
        node?.recordAttached()
        child.load()
        if interactable.isActive { child.setSubtreeActive(true) }
    }

    public final func detachChild(_ child: any Routing) {
        guard let index = children.firstIndex(where: { $0 === child }) else { return }
        if shownChild == ObjectIdentifier(child) { shownChild = nil }
        child.setSubtreeActive(false)
        children.remove(at: index)
        let node = child as? any TreeNode
        node?.recordDetached()
        if let context {
            context.leakDetector.expectDetached(
                child, interactor: child.interactable, view: child.view, named: child.name, from: self)
        }
        node?.adopt(parent: nil, context: context)
    }

    /// The child shown by ``show(_:)``, for routers that switch between exclusive children
    /// (LoggedOut or LoggedIn, Request or OnTrip).
    public var shown: (any Routing)? {
        guard let shownChild else { return nil }
        return children.first { ObjectIdentifier($0) == shownChild }
    }

    /// Shows `child` in place of the child shown now, which is detached first.
    public final func show(_ child: any Routing) {
        if let shown { detachChild(shown) }
        shownChild = ObjectIdentifier(child)
        attachChild(child)
    }

    /// Shows a child of type `Child`, made by `make`, unless one is shown already.
    public final func show<Child: Routing>(_ type: Child.Type, _ make: () -> Child) {
        guard !(shown is Child) else { return }
        show(make())
    }

    /// Detaches every child, last attached first.
    public final func detachAllChildren() {
        for child in children.reversed() { detachChild(child) }
    }

    public final func setSubtreeActive(_ active: Bool) {
        if active {
            interactable.activate()
        } else {
            // Children first, so that no child is active under an inactive parent.
            children.reversed().forEach { $0.setSubtreeActive(false) }
            interactable.deactivate()
        }
    }
}

extension Router: ActiveStateFollowing {}

extension Router: TreeNode {
    var attachedParent: (any Routing)? { parent }

    func orphan() { parent = nil }

    func adopt(parent: (any Routing)?, context: RIBContext?) {
        self.parent = parent
        self.context = context
        for child in children {
            (child as? any TreeNode)?.adopt(parent: self, context: context)
        }
    }

    func recordAttached() { record(.attached) }

    func recordDetached() { record(.detached) }

    private func record(_ kind: RIBEvent.Kind) {
        guard let context else { return }
        // Most trees are never watched: the path (every ancestor's name) only for observers.
        guard let observers = context.inspector.record(kind) else { return }
        observers.send(RIBEvent(kind: kind, path: path, time: context.now()))
    }
}
