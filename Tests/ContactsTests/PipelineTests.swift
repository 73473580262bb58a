import Testing

@testable import Contacts

@Suite("The contacts pipeline, answer by answer")
struct PipelineTests {
    @Test("Contacts merge in the providers' order whatever order they answer in, then ready")
    func providerOrder() throws {
        var pipeline = ContactsPipeline(providers: ["book", "recent"])
        #expect(pipeline.begin().isEmpty)
        let recent = pipeline.provider("recent", answered: .success([person("r1", "Ana")]))
        #expect(recent == [.providerFinished(name: "recent", count: 1)])
        #expect(pipeline.isLoading)
        let book = pipeline.provider("book", answered: .success([person("b1", "Bo"), person("b2", "Cy")]))
        let ids = pipeline.contacts?.map(\.id)
        #expect(ids == ["b1", "b2", "r1"])
        #expect(book.count == 2)
        #expect(book.first == .providerFinished(name: "book", count: 2))
        guard case .ready(let ready)? = book.last else { throw Failure("no ready event: \(book)") }
        #expect(ready.map(\.sources) == [["book"], ["book"], ["recent"]])
        #expect(!pipeline.isLoading)
    }

    @Test("A failed provider is reported and left out; the rest are ready")
    func failedProvider() {
        var pipeline = ContactsPipeline(providers: ["book", "recent"])
        _ = pipeline.begin()
        let failed = pipeline.provider("book", answered: .failure(FixedProvider.Broken()))
        #expect(failed == [.providerFailed(name: "book", reason: "the address book is locked")])
        let events = pipeline.provider("recent", answered: .success([person("r1", "Ana")]))
        #expect(events.last == .ready([person("r1", "Ana").with(sources: ["recent"])]))
    }

    @Test("Answers from unknown providers, second answers and answers outside a load change nothing")
    func strayAnswers() {
        var pipeline = ContactsPipeline(providers: ["book"])
        #expect(pipeline.provider("book", answered: .success([person("b1", "Bo")])).isEmpty)
        #expect(pipeline.contacts == nil)
        _ = pipeline.begin()
        #expect(pipeline.provider("nobody", answered: .success([person("x", "X")])).isEmpty)
        #expect(pipeline.provider("book", answered: .success([person("b1", "Bo")])).count == 2)
        #expect(pipeline.provider("book", answered: .success([person("b2", "Cy")])).isEmpty)
        #expect(pipeline.contacts?.map(\.id) == ["b1"])
    }

    @Test("No providers: ready at once, with nothing")
    func noProviders() {
        var pipeline = ContactsPipeline(providers: [])
        #expect(pipeline.begin() == [.ready([])])
    }

    @Test("Post-processors run in their order, each on the one before's output")
    func postProcessorOrder() {
        let contacts = [person("a", "Ana", "lee"), person("b", "Bo", "kim")]
        var shoutThenCut = ContactsPipeline(providers: ["p"], postProcessors: [ShoutFamilyNames(), KeepFirst(count: 1)])
        _ = shoutThenCut.begin()
        _ = shoutThenCut.provider("p", answered: .success(contacts))
        #expect(shoutThenCut.contacts?.map(\.fullName) == ["Ana LEE"])
        var ordered = ContactsPipeline(providers: ["p"], postProcessors: [OrderByCloseness(), KeepFirst(count: 1)])
        _ = ordered.begin()
        _ = ordered.provider("p", answered: .success([person("a", "Ana"), person("b", "Bo", rides: 2)]))
        #expect(ordered.contacts?.map(\.id) == ["b"])
    }

    @Test("Selection goes through the filters in order; the first refusal is the one given")
    func selectionFilters() throws {
        var pipeline = ContactsPipeline(
            providers: ["p"], filters: [OnlyReachable(), AtMost(2)])
        #expect(throws: SelectionRefused(contactID: "a", reason: "contacts are not loaded yet")) { try pipeline.select("a") }
        _ = pipeline.begin()
        _ = pipeline.provider(
            "p",
            answered: .success([
                person("a", "Ana", phone: "646 555 0101"), person("b", "Bo", account: "rider-2"), person("c", "Cy"),
                person("d", "Di", phone: "+1 646 555 0104"),
            ]))
        #expect(try pipeline.select("a").count == 1)
        #expect(try pipeline.select("a").isEmpty)
        #expect(throws: SelectionRefused(contactID: "c", reason: "Cy has no phone number or account")) {
            try pipeline.select("c")
        }
        #expect(try pipeline.select("b") == [.selectionChanged([pipeline.contacts![0], pipeline.contacts![1]])])
        #expect(throws: SelectionRefused(contactID: "d", reason: "at most 2 may be selected")) { try pipeline.select("d") }
        #expect(throws: SelectionRefused(contactID: "zz", reason: "no such contact")) { try pipeline.select("zz") }
        #expect(pipeline.deselect("a").count == 1)
        #expect(pipeline.deselect("a").isEmpty)
        _ = try pipeline.select("d")
        #expect(pipeline.selected.map(\.id) == ["b", "d"])
    }

    @Test("A reload keeps the selected contacts it still has and deselects the others")
    func reloadKeepsSelection() throws {
        var pipeline = ContactsPipeline(providers: ["p"])
        _ = pipeline.begin()
        _ = pipeline.provider("p", answered: .success([person("a", "Ana"), person("b", "Bo")]))
        _ = try pipeline.select("a")
        _ = try pipeline.select("b")
        _ = pipeline.begin()
        let events = pipeline.provider("p", answered: .success([person("b", "Bo", "Kim")]))
        #expect(events.last == .selectionChanged([person("b", "Bo", "Kim").with(sources: ["p"])]))
        #expect(pipeline.selected.map(\.fullName) == ["Bo Kim"])
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Contact {
    func with(sources: [String]) -> Contact {
        var copy = self
        copy.sources = sources
        return copy
    }
}
