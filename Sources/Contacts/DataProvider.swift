/// One source of contacts (an address book, a list of people the owner rode with). A data
/// source runs its providers side by side and merges what they load, in the order the providers
/// were given, whatever order they finish in.
public protocol DataProvider: Sendable {
    /// The provider's name, as events and contacts' `sources` give it.
    var name: String { get }
    /// Loads the provider's contacts; a failure leaves them out and is reported.
    func load() async throws -> [Contact]
}
