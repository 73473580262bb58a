/// Orders contacts by how often the owner dealt with them, then by how recently, then by name
/// and id (so that equals keep one order every time).
public struct OrderByCloseness: PostProcessor {
    public init() {}

    public func process(_ contacts: [Contact]) -> [Contact] {
        contacts.sorted { a, b in
            if a.closeness.count != b.closeness.count { return a.closeness.count > b.closeness.count }
            let lastA = a.closeness.last ?? -.infinity
            let lastB = b.closeness.last ?? -.infinity
            if lastA != lastB { return lastA > lastB }
            if a.fullName != b.fullName { return a.fullName < b.fullName }
            return a.id < b.id
        }
    }
}
