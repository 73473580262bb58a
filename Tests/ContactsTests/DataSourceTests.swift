import Testing

@testable import Contacts

@Suite("The data source over asynchronous providers")
struct DataSourceTests {
    @Test("Providers load side by side; events say each finished, then ready, in merge order")
    func loadsAndSignals() async throws {
        let slow = FixedProvider(name: "book", contacts: [person("b1", "Bo", phone: "646 555 0101")], delay: .milliseconds(30))
        let fast = FixedProvider(name: "recent", contacts: [person("r1", "Bo", "Kim", phone: "+16465550101", rides: 2)])
        let broken = FixedProvider(name: "social", contacts: [], fails: true)
        let source = ContactsDataSource(
            providers: [slow, fast, broken], postProcessors: [MergeDuplicates(), OrderByCloseness()], filters: [AtMost(1)])
        let events = await source.events()
        let contacts = await source.loadContacts()
        #expect(contacts.map(\.id) == ["b1"])
        #expect(contacts.first?.fullName == "Bo Kim")
        #expect(contacts.first?.sources == ["book", "recent"])
        var seen: [ContactsEvent] = []
        for await event in events {
            seen.append(event)
            if case .ready = event { break }
        }
        #expect(seen.count == 4)
        #expect(seen.contains(.providerFinished(name: "book", count: 1)))
        #expect(seen.contains(.providerFinished(name: "recent", count: 1)))
        #expect(seen.contains(.providerFailed(name: "social", reason: "the address book is locked")))
        #expect(seen.last == .ready(contacts))
    }

    @Test("Selection changes are published; a refused selection throws and publishes nothing")
    func selection() async throws {
        let source = ContactsDataSource(
            providers: [
                FixedProvider(
                    name: "p", contacts: [person("a", "Ana", phone: "646 555 0101"), person("b", "Bo", phone: "646 555 0102")])
            ],
            filters: [AtMost(1)])
        await source.loadContacts()
        let events = await source.events()
        try await source.select("a")
        await #expect(throws: SelectionRefused(contactID: "b", reason: "at most 1 may be selected")) {
            try await source.select("b")
        }
        await source.deselect("a")
        try await source.select("b")
        var changes: [[String]] = []
        for await event in events {
            guard case .selectionChanged(let selected) = event else { continue }
            changes.append(selected.map(\.id))
            if changes.count == 3 { break }
        }
        #expect(changes == [["a"], [], ["b"]])
        #expect(await source.selected.map(\.id) == ["b"])
    }

    @Test("The same answers give the same contacts, load after load")
    func deterministic() async {
        let providers: [any DataProvider] = (0..<4).map { index in
            FixedProvider(
                name: "p\(index)",
                contacts: (0..<5).map { person("p\(index)/\($0)", "N\($0)", phone: "646 555 01\(index)\($0)", rides: $0) },
                delay: .milliseconds(Int64(5 * (4 - index))))
        }
        let source = ContactsDataSource(providers: providers, postProcessors: [MergeDuplicates(), OrderByCloseness()])
        let first = await source.loadContacts()
        let second = await source.loadContacts()
        #expect(first == second)
        #expect(first.count == 20)
    }
}
