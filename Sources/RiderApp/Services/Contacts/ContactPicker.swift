import Contacts

/// A plugin's pick of contacts: the rider's contacts loaded once for this use, and what the
/// person picks put through the selection filters (a refused pick is left out, as the screen
/// would leave it).
struct ContactPicker {
    private var pipeline: ContactsPipeline

    init(_ contacts: RiderContacts, selectingAtMost limit: Int) {
        pipeline = contacts.loaded(selectingAtMost: limit)
    }

    /// The contacts to pick from, closest first.
    var rows: [ContactRow] { (pipeline.contacts ?? []).map(ContactRow.init) }

    /// Selects `ids` and returns the accounts (rider ids) of everyone selected.
    mutating func pick(_ ids: [String]) -> [String] {
        for id in ids { _ = try? pipeline.select(id) }
        return pipeline.selected.compactMap(\.account)
    }
}
