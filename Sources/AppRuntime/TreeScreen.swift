import RIBs

extension RIBTreeSnapshot {
    /// What the deepest, most recently attached RIB shows: the screen a user is looking at.
    public var deepestScreen: String {
        children.last?.deepestScreen ?? screen ?? name
    }
}
