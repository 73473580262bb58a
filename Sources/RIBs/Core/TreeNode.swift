/// How a router hands the tree's context and its place in the tree to a child it attaches.
protocol TreeNode: AnyObject {
    func adopt(parent: (any Routing)?, context: RIBContext?)
    /// The router this one is attached to, if any.
    var attachedParent: (any Routing)? { get }
    /// Forgets the parent, which is going.
    func orphan()
    func recordAttached()
    func recordDetached()
}
