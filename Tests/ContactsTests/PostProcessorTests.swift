import Testing

@testable import Contacts

@Suite("Post-processors and filters")
struct PostProcessorTests {
    @Test("Phone numbers compare by their digits, with North America's country code")
    func phoneNumbers() {
        #expect(PhoneNumber.normalized("(646) 555-0101") == "16465550101")
        #expect(PhoneNumber.normalized("+1 646 555 0101") == "16465550101")
        #expect(PhoneNumber.normalized("+44 20 7946 0958") == "442079460958")
        #expect(PhoneNumber.normalized("555-01") == nil)
        #expect(PhoneNumber.normalized("call me") == nil)
    }

    @Test("Duplicates by phone or account merge into the first record, keeping everything once")
    func mergeDuplicates() {
        var book = person("book/1", "Ana", phone: "(646) 555-0101", rides: 0)
        book.fields.append(Contact.Field(label: "email", value: "ana@example.com"))
        book.sources = ["book"]
        var recent = person("recent/rider-7", "Ana", "Lee", phone: "+1 646 555 0101", account: "rider-7", rides: 3, last: 500)
        recent.sources = ["recent"]
        var againByAccount = person("other/9", "A.", account: "rider-7", rides: 1, last: 900)
        againByAccount.sources = ["other"]
        let stranger = person("book/2", "Bo", phone: "917 555 0199")
        let noKeys = person("book/3", "Cy")
        let merged = MergeDuplicates().process([book, stranger, recent, noKeys, againByAccount])
        #expect(merged.map(\.id) == ["book/1", "book/2", "book/3"])
        let ana = merged[0]
        #expect(ana.fullName == "Ana Lee")
        #expect(ana.fields.map(\.value) == ["(646) 555-0101", "ana@example.com"])
        #expect(ana.account == "rider-7")
        #expect(ana.closeness == Contact.Closeness(count: 4, last: 900))
        #expect(ana.sources == ["book", "recent", "other"])
    }

    @Test("Account holders are kept, their accounts found by phone; the others are left out")
    func keepAccountHolders() {
        let directory = Directory(accounts: ["16465550101": "rider-7"])
        let kept = KeepAccountHolders(directory: directory).process([
            person("a", "Ana", phone: "646-555-0101"), person("b", "Bo", phone: "917 555 0199"),
            person("c", "Cy", account: "rider-3"),
        ])
        #expect(kept.map(\.id) == ["a", "c"])
        #expect(kept.map(\.account) == ["rider-7", "rider-3"])
    }

    @Test("Order: most often, then most recent, then name, then id")
    func orderByCloseness() {
        let ordered = OrderByCloseness().process([
            person("z", "Zed", rides: 1, last: 100), person("y", "Yu", rides: 1, last: 200), person("x", "Xi", rides: 5),
            person("b", "Ann"), person("a", "Ann"), person("c", "Al"),
        ])
        #expect(ordered.map(\.id) == ["x", "y", "z", "c", "a", "b"])
    }
}
