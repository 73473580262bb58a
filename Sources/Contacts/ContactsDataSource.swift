/// The contacts library's front: made from data providers, post-processors and selection
/// filters, it loads every provider side by side, shapes the merged contacts, and publishes
/// "provider finished", "ready" and selection changes on streams — the signals of Uber's Ohana,
/// as Swift concurrency.
///
/// The merged order is the providers' order, never the order they finish in, so a load gives the
/// same contacts every time its providers give the same answers.
public actor ContactsDataSource {
    private let dataProviders: [any DataProvider]
    private var pipeline: ContactsPipeline
    private var subscribers: [Int: AsyncStream<ContactsEvent>.Continuation] = [:]
    private var nextSubscriber = 0

    public init(
        providers: [any DataProvider], postProcessors: [any PostProcessor] = [], filters: [any SelectionFilter] = []
    ) {
        dataProviders = providers
        pipeline = ContactsPipeline(providers: providers.map(\.name), postProcessors: postProcessors, filters: filters)
    }

    /// The contacts of the last completed load; nil before the first.
    public var contacts: [Contact]? { pipeline.contacts }

    /// The selected contacts, in the order they were selected.
    public var selected: [Contact] { pipeline.selected }

    /// Every event from now on, until the data source goes away or the consumer stops.
    public func events() -> AsyncStream<ContactsEvent> {
        let (stream, continuation) = AsyncStream<ContactsEvent>.makeStream(bufferingPolicy: .unbounded)
        let key = nextSubscriber
        nextSubscriber += 1
        subscribers[key] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(key) }
        }
        return stream
    }

    private func unsubscribe(_ key: Int) {
        subscribers[key] = nil
    }

    /// Loads every provider (side by side), runs the post-processors, and returns the contacts;
    /// subscribers see each provider finish or fail, then `ready`.
    @discardableResult
    public func loadContacts() async -> [Contact] {
        publish(pipeline.begin())
        await withTaskGroup(of: (String, Result<[Contact], any Error>).self) { group in
            for provider in dataProviders {
                group.addTask {
                    do { return (provider.name, .success(try await provider.load())) } catch {
                        return (provider.name, .failure(error))
                    }
                }
            }
            for await (name, result) in group {
                publish(pipeline.provider(name, answered: result))
            }
        }
        return pipeline.contacts ?? []
    }

    /// Selects a contact, if every filter allows it.
    public func select(_ id: String) throws(SelectionRefused) {
        publish(try pipeline.select(id))
    }

    /// Deselects a contact, if it is selected.
    public func deselect(_ id: String) {
        publish(pipeline.deselect(id))
    }

    private func publish(_ events: [ContactsEvent]) {
        for event in events {
            for continuation in subscribers.values { continuation.yield(event) }
        }
    }

    deinit {
        for continuation in subscribers.values { continuation.finish() }
    }
}
