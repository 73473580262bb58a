/// Something that happened in a RIB tree.
public struct RIBEvent: Sendable, Equatable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Codable {
        case attached, detached, activated, deactivated
    }

    /// What happened.
    public let kind: Kind
    /// The RIB's path, e.g. `/Root/LoggedIn`.
    public let path: String
    /// When, on the tree's clock.
    public let time: Duration
}
