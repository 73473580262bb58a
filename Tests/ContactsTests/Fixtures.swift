import Contacts

/// A provider that answers after `delay` with fixed contacts, or fails.
struct FixedProvider: DataProvider {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the address book is locked" }
    }

    let name: String
    let contacts: [Contact]
    var delay: Duration = .zero
    var fails = false

    func load() async throws -> [Contact] {
        if delay > .zero { try await Task.sleep(for: delay) }
        if fails { throw Broken() }
        return contacts
    }
}

/// Phone numbers of accounts, as a service's directory would know them.
struct Directory: AccountDirectory {
    let accounts: [String: String]

    func account(forPhone digits: String) -> String? { accounts[digits] }
}

/// Upper-cases family names: a transform, to check post-processors run in order.
struct ShoutFamilyNames: PostProcessor {
    func process(_ contacts: [Contact]) -> [Contact] {
        contacts.map { contact in
            var contact = contact
            contact.familyName = contact.familyName.uppercased()
            return contact
        }
    }
}

/// Keeps the first `count` contacts.
struct KeepFirst: PostProcessor {
    let count: Int

    func process(_ contacts: [Contact]) -> [Contact] { Array(contacts.prefix(count)) }
}

func person(
    _ id: String, _ given: String, _ family: String = "", phone: String? = nil, account: String? = nil, rides: Int = 0,
    last: Double? = nil
) -> Contact {
    Contact(
        id: id, givenName: given, familyName: family, fields: phone.map { [Contact.Field(label: "mobile", value: $0)] } ?? [],
        account: account, closeness: Contact.Closeness(count: rides, last: last))
}
