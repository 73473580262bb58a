/// Which process owns each of a city's riders and drivers, by name: the topology's split, known
/// to dispatch as to every host. A session acts only for what its process owns; a name the split
/// does not cover (an external client's own rider, say) belongs to the first session that acts
/// for it, until that session ends.
public struct AppOwners: Sendable {
    private let riderOwner: @Sendable (String) -> String?
    private let driverOwner: @Sendable (String) -> String?

    /// - Parameters:
    ///   - rider: the process owning a rider's name, or nil for a name the split does not cover.
    ///   - driver: likewise for a driver's name.
    public init(rider: @escaping @Sendable (String) -> String?, driver: @escaping @Sendable (String) -> String?) {
        riderOwner = rider
        driverOwner = driver
    }

    /// No split known: every name belongs to the first session that acts for it.
    public static let firstClaim = AppOwners(rider: { _ in nil }, driver: { _ in nil })

    func owner(ofRider name: String) -> String? { riderOwner(name) }
    func owner(ofDriver name: String) -> String? { driverOwner(name) }
}
