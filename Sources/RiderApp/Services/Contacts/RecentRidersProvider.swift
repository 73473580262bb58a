import Contacts
import Randomness

/// The riders a rider rode with recently (shared rides, trips together): most of them friends
/// from the address book, under the name the service knows them by, with how often and when.
struct RecentRidersProvider: DataProvider {
    let name = "recent-riders"
    let rider: Int
    let cityRiders: Int
    let seed: UInt64
    /// When the rider opened the app (simulated seconds): the rides were before.
    let now: Double

    func load() async throws -> [Contact] { contacts() }

    func contacts() -> [Contact] {
        var random = SeededGenerator(seed: seed ^ 0x5EC7)
        let friends = RiderCircle.friends(of: rider, among: cityRiders, seed: seed)
        return friends.prefix(3).map { friend in
            Contact(
                id: "recent/rider-\(friend)", givenName: "Rider", familyName: "\(friend)",
                fields: [.init(label: "mobile", value: RiderPhone.number(ofRider: friend, style: 0))], account: "rider-\(friend)",
                closeness: Contact.Closeness(
                    count: Int.random(in: 1...5, using: &random), last: now - Double.random(in: 3_600...1_209_600, using: &random)
                ))
        }
    }
}
