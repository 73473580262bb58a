import Contacts
import Randomness

/// A rider's address book, synthetic and drawn from their seed: friends who are riders of the
/// city (numbers close to theirs, so asking for rides at about the same time), people who are
/// not, and an entry with no phone number. Numbers are written in several ways, as people do.
struct AddressBookProvider: DataProvider {
    let name = "address-book"
    let rider: Int
    let cityRiders: Int
    let seed: UInt64

    private static let others = ["Alex Moreno", "Sam Okafor", "Jo Nguyen", "Kim Alvarez", "Lee Fischer", "Pat Silva"]

    func load() async throws -> [Contact] { contacts() }

    /// The book's entries, the same for the same seed.
    func contacts() -> [Contact] {
        var random = SeededGenerator(seed: seed ^ 0xB00C)
        var book: [Contact] = []
        for friend in RiderCircle.friends(of: rider, among: cityRiders, seed: seed) {
            book.append(
                Contact(
                    id: "book/\(book.count)", givenName: "Rider", familyName: "\(friend)",
                    fields: [
                        .init(
                            label: "mobile",
                            value: RiderPhone.number(ofRider: friend, style: Int.random(in: 0..<3, using: &random)))
                    ]
                ))
        }
        for _ in 0..<3 {
            let name = Self.others[Int.random(in: 0..<Self.others.count, using: &random)].split(separator: " ")
            book.append(
                Contact(
                    id: "book/\(book.count)", givenName: String(name[0]), familyName: String(name[1]),
                    fields: [.init(label: "mobile", value: "+1 917 555 \(1_000 + Int.random(in: 0..<9_000, using: &random))")]))
        }
        book.append(
            Contact(id: "book/\(book.count)", givenName: "Dana", fields: [.init(label: "email", value: "dana@example.com")]))
        return book
    }
}
