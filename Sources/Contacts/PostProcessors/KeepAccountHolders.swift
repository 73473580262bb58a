/// Who has an account with the service, looked up by phone number.
public protocol AccountDirectory: Sendable {
    /// The account of the number (digits as ``PhoneNumber/normalized(_:)`` gives them), if any.
    func account(forPhone digits: String) -> String?
}

/// Keeps the contacts who have an account with the service: a contact whose account is not yet
/// known gets the one its first registered phone number has; contacts with none are left out.
public struct KeepAccountHolders: PostProcessor {
    public let directory: any AccountDirectory

    public init(directory: any AccountDirectory) {
        self.directory = directory
    }

    public func process(_ contacts: [Contact]) -> [Contact] {
        contacts.compactMap { contact in
            var contact = contact
            if contact.account == nil {
                contact.account = contact.normalizedPhones.lazy.compactMap(directory.account(forPhone:)).first
            }
            return contact.account == nil ? nil : contact
        }
    }
}
