import Contacts

/// The rider's contacts pipeline for one use (whom to share the ETA with, whom to invite to
/// split the fare): the address book and the recent riders, merged, kept to riders of the city,
/// closest first; at most `limit` may be selected, each reachable.
///
/// The providers are local, so the app loads them within one turn: it drives the pipeline
/// itself rather than through ``Contacts/ContactsDataSource``'s tasks, which would finish
/// outside the turn (and so outside virtual time's order).
struct RiderContacts {
    let rider: Int
    let cityRiders: Int
    let seed: UInt64
    let openedAt: Double

    /// A pipeline for one use, loaded.
    func loaded(selectingAtMost limit: Int) -> ContactsPipeline {
        let addressBook = AddressBookProvider(rider: rider, cityRiders: cityRiders, seed: seed)
        let recent = RecentRidersProvider(rider: rider, cityRiders: cityRiders, seed: seed, now: openedAt)
        var pipeline = ContactsPipeline(
            providers: [addressBook.name, recent.name],
            postProcessors: [
                MergeDuplicates(), KeepAccountHolders(directory: CityRiderDirectory(count: cityRiders)), OrderByCloseness(),
            ],
            filters: [OnlyReachable(), AtMost(limit)])
        _ = pipeline.begin()
        _ = pipeline.provider(addressBook.name, answered: .success(addressBook.contacts()))
        _ = pipeline.provider(recent.name, answered: .success(recent.contacts()))
        return pipeline
    }
}
