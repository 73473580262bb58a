/// Allows at most `limit` contacts selected at once.
public struct AtMost: SelectionFilter {
    public let limit: Int

    public init(_ limit: Int) {
        precondition(limit >= 0, "a selection limit cannot be negative")
        self.limit = limit
    }

    public func refusal(toSelect contact: Contact, alongside selected: [Contact]) -> String? {
        selected.count >= limit ? "at most \(limit) may be selected" : nil
    }
}
