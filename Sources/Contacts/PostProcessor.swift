/// One step that shapes the merged contacts for a use: filters, merges, orders or transforms.
/// A data source runs its post-processors in order, each on what the one before returned.
public protocol PostProcessor: Sendable {
    func process(_ contacts: [Contact]) -> [Contact]
}
