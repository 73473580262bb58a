/// Allows only contacts who can be reached: with a phone number, or an account with the service.
public struct OnlyReachable: SelectionFilter {
    public init() {}

    public func refusal(toSelect contact: Contact, alongside selected: [Contact]) -> String? {
        contact.normalizedPhones.isEmpty && contact.account == nil ? "\(contact.fullName) has no phone number or account" : nil
    }
}
