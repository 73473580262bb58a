/// A person as the contacts pipeline hands them out: a name, an ordered list of named fields
/// ("mobile", "home", "email"…), the account they have with the service if one is known, and how
/// often and how recently the owner dealt with them. Two contacts are equal when every part is.
public struct Contact: Sendable, Hashable, Identifiable {
    /// One named field, such as a phone number under "mobile".
    public struct Field: Sendable, Hashable {
        public var label: String
        public var value: String

        public init(label: String, value: String) {
            self.label = label
            self.value = value
        }

        /// Whether the field holds a phone number (its label says so).
        public var isPhone: Bool { Field.phoneLabels.contains(label) }

        /// The labels under which a phone number is kept.
        public static let phoneLabels: Set<String> = ["mobile", "phone", "home", "work", "iPhone"]
    }

    /// How often and how recently the owner dealt with the person (rides together, messages).
    public struct Closeness: Sendable, Hashable {
        public var count: Int
        /// When last, in the owner's clock (simulated seconds in ribcity); nil for never.
        public var last: Double?

        public init(count: Int = 0, last: Double? = nil) {
            self.count = count
            self.last = last
        }

        /// Both together, as when two records of one person are merged.
        public func merged(with other: Closeness) -> Closeness {
            Closeness(count: count + other.count, last: [last, other.last].compactMap { $0 }.max())
        }
    }

    /// Stable across loads: the provider's own key for the record.
    public var id: String
    public var givenName: String
    public var familyName: String
    public var fields: [Field]
    /// The person's account with the service (in ribcity, their rider id), once known.
    public var account: String?
    public var closeness: Closeness
    /// The providers the record came from, in the order they were merged.
    public var sources: [String]

    public init(
        id: String, givenName: String, familyName: String = "", fields: [Field] = [], account: String? = nil,
        closeness: Closeness = Closeness(), sources: [String] = []
    ) {
        self.id = id
        self.givenName = givenName
        self.familyName = familyName
        self.fields = fields
        self.account = account
        self.closeness = closeness
        self.sources = sources
    }

    /// Given and family name with one space between (either may be empty).
    public var fullName: String {
        [givenName, familyName].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The phone numbers among the fields, in field order.
    public var phoneNumbers: [String] { fields.filter(\.isPhone).map(\.value) }

    /// The phone numbers reduced to their digits (with the country code 1 added to ten-digit
    /// numbers), so that "(646) 555-0100" and "+1 646 555 0100" are the same number.
    public var normalizedPhones: [String] { phoneNumbers.compactMap(PhoneNumber.normalized) }
}

/// Phone numbers as the pipeline compares them.
public enum PhoneNumber {
    /// The digits of `text` in international form (North American ten-digit numbers get their
    /// country code 1), or nil when it has too few digits to be a number.
    public static func normalized(_ text: String) -> String? {
        let digits = text.filter(\.isASCII).filter(\.isNumber)
        guard digits.count >= 7 else { return nil }
        return digits.count == 10 ? "1" + digits : digits
    }
}
