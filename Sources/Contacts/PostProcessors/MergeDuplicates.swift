/// Merges records of one person: two contacts are one when they share a phone number (compared
/// by digits) or an account. The merged contact keeps the first record's id and place, the
/// fuller of the names, every field once (first record's first), the first account known, and
/// the closeness of both.
public struct MergeDuplicates: PostProcessor {
    public init() {}

    public func process(_ contacts: [Contact]) -> [Contact] {
        var merged: [Contact] = []
        var byKey: [String: Int] = [:]
        for contact in contacts {
            let keys = Self.keys(of: contact)
            guard let index = keys.lazy.compactMap({ byKey[$0] }).first else {
                for key in keys { byKey[key] = merged.count }
                merged.append(contact)
                continue
            }
            merged[index] = Self.merge(merged[index], contact)
            for key in Self.keys(of: merged[index]) where byKey[key] == nil { byKey[key] = index }
        }
        return merged
    }

    private static func keys(of contact: Contact) -> [String] {
        contact.normalizedPhones.map { "phone:" + $0 } + (contact.account.map { ["account:" + $0] } ?? [])
    }

    private static func merge(_ first: Contact, _ second: Contact) -> Contact {
        var result = first
        if second.fullName.count > first.fullName.count {
            result.givenName = second.givenName
            result.familyName = second.familyName
        }
        var seen = Set(first.fields.map { PhoneNumber.normalized($0.value).map { "phone:" + $0 } ?? "\($0.label):\($0.value)" })
        for field in second.fields {
            let key = PhoneNumber.normalized(field.value).map { "phone:" + $0 } ?? "\(field.label):\(field.value)"
            if seen.insert(key).inserted { result.fields.append(field) }
        }
        result.account = first.account ?? second.account
        result.closeness = first.closeness.merged(with: second.closeness)
        for source in second.sources where !result.sources.contains(source) { result.sources.append(source) }
        return result
    }
}
