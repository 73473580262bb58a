/// What a contacts pipeline tells its consumer, in the order it happens.
public enum ContactsEvent: Sendable, Equatable {
    /// A provider finished loading, with how many contacts it gave.
    case providerFinished(name: String, count: Int)
    /// A provider failed; its contacts are left out and the others go on.
    case providerFailed(name: String, reason: String)
    /// Every provider has answered and the post-processors have run: the contacts, in order.
    case ready([Contact])
    /// The selection changed: the selected contacts, in the order they were selected.
    case selectionChanged([Contact])
}
