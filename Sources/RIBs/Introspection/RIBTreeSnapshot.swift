/// The live tree as a value: what a monitor shows of an app.
public struct RIBTreeSnapshot: Sendable, Equatable, Codable {
    /// The RIB's name, its path, whether it has a view, and whether its interactor is active.
    public let name: String
    public let path: String
    public let viewful: Bool
    public let active: Bool
    /// What the RIB's view shows, for viewful RIBs.
    public let screen: String?
    /// The attached children, in attachment order.
    public let children: [RIBTreeSnapshot]

    public init(
        name: String, path: String, viewful: Bool, active: Bool, screen: String?, children: [RIBTreeSnapshot]
    ) {
        self.name = name
        self.path = path
        self.viewful = viewful
        self.active = active
        self.screen = screen
        self.children = children
    }

    /// How many RIBs the tree holds.
    public var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}

extension Routing {
    /// The tree below and including this RIB, as it is now.
    public func snapshot() -> RIBTreeSnapshot {
        RIBTreeSnapshot(
            name: name,
            path: path,
            viewful: view != nil,
            active: interactable.isActive,
            screen: view?.screenDescription,
            children: children.map { $0.snapshot() }
        )
    }
}
