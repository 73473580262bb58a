/// A rule a selection must keep: asked before each contact is selected, it may refuse, saying
/// why (so that the screen can show it).
public protocol SelectionFilter: Sendable {
    /// Why `contact` may not join `selected`, or nil to allow it.
    func refusal(toSelect contact: Contact, alongside selected: [Contact]) -> String?
}

/// A selection refused by a filter, or of a contact the data source does not have.
public struct SelectionRefused: Error, Equatable, CustomStringConvertible {
    public let contactID: String
    public let reason: String

    public init(contactID: String, reason: String) {
        self.contactID = contactID
        self.reason = reason
    }

    public var description: String { "\(contactID) cannot be selected: \(reason)" }
}
