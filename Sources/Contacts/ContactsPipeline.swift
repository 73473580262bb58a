/// The contacts pipeline without its clocks or tasks: results of providers go in, events come
/// out. It merges providers' contacts in the order the providers were given (not the order they
/// finish in), runs the post-processors in order once every provider has answered, and keeps the
/// selection, which the selection filters may refuse.
///
/// ``ContactsDataSource`` drives it from providers that load asynchronously; an app whose work
/// runs in turns (a RIB tree on its actor) drives it directly as answers come in.
public struct ContactsPipeline: Sendable {
    /// The providers' names, in merge order.
    public let providers: [String]
    private let postProcessors: [any PostProcessor]
    private let filters: [any SelectionFilter]
    /// Each provider's answer of the current load, by its place in `providers`.
    private var answers: [[Contact]?]
    private var loading = false
    /// The contacts of the last completed load; nil before the first.
    public private(set) var contacts: [Contact]?
    /// The selected contacts, in the order they were selected.
    public private(set) var selected: [Contact] = []

    /// A pipeline over providers named `providers` (distinct names, merged in this order).
    public init(providers: [String], postProcessors: [any PostProcessor] = [], filters: [any SelectionFilter] = []) {
        precondition(Set(providers).count == providers.count, "two contacts providers share a name: \(providers)")
        self.providers = providers
        self.postProcessors = postProcessors
        self.filters = filters
        answers = Array(repeating: nil, count: providers.count)
    }

    /// Whether a load has begun and not every provider has answered yet.
    public var isLoading: Bool { loading }

    /// Starts a load: every provider's answer is awaited again. With no providers, it is ready
    /// at once.
    public mutating func begin() -> [ContactsEvent] {
        answers = Array(repeating: nil, count: providers.count)
        loading = true
        return completeIfAnswered()
    }

    /// Takes a provider's answer: its contacts, or why it failed (a failed provider counts as
    /// answered with none). An answer from a provider not asked, or a second answer in one
    /// load, changes nothing.
    public mutating func provider(_ name: String, answered result: Result<[Contact], any Error>) -> [ContactsEvent] {
        guard loading, let index = providers.firstIndex(of: name), answers[index] == nil else { return [] }
        var events: [ContactsEvent]
        switch result {
        case .success(let loaded):
            answers[index] = loaded.map { contact in
                var contact = contact
                if !contact.sources.contains(name) { contact.sources.append(name) }
                return contact
            }
            events = [.providerFinished(name: name, count: loaded.count)]
        case .failure(let error):
            answers[index] = []
            events = [.providerFailed(name: name, reason: "\(error)")]
        }
        events += completeIfAnswered()
        return events
    }

    private mutating func completeIfAnswered() -> [ContactsEvent] {
        guard loading, answers.allSatisfy({ $0 != nil }) else { return [] }
        loading = false
        let merged = postProcessors.reduce(answers.flatMap { $0 ?? [] }) { contacts, step in step.process(contacts) }
        contacts = merged
        var events: [ContactsEvent] = [.ready(merged)]
        // A selected contact the new load no longer has is deselected; the others follow their
        // new record.
        let kept = selected.compactMap { old in merged.first { $0.id == old.id } }
        if kept != selected {
            selected = kept
            events.append(.selectionChanged(kept))
        }
        return events
    }

    /// Selects the contact with `id`, if every filter allows it. Selecting a selected contact
    /// changes nothing.
    public mutating func select(_ id: String) throws(SelectionRefused) -> [ContactsEvent] {
        guard !selected.contains(where: { $0.id == id }) else { return [] }
        guard let contact = contacts?.first(where: { $0.id == id }) else {
            throw SelectionRefused(contactID: id, reason: contacts == nil ? "contacts are not loaded yet" : "no such contact")
        }
        for filter in filters {
            if let reason = filter.refusal(toSelect: contact, alongside: selected) {
                throw SelectionRefused(contactID: id, reason: reason)
            }
        }
        selected.append(contact)
        return [.selectionChanged(selected)]
    }

    /// Deselects the contact with `id`, if it is selected.
    public mutating func deselect(_ id: String) -> [ContactsEvent] {
        guard let index = selected.firstIndex(where: { $0.id == id }) else { return [] }
        selected.remove(at: index)
        return [.selectionChanged(selected)]
    }
}
