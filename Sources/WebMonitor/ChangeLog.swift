/// Which keys (drivers, requests) changed after a given version: a log of changes in version
/// order, so a page's frame costs what changed since its last and not the size of the city.
/// When the log grows to several times the number of keys it is compacted to each key's latest
/// change, which keeps every answer the same.
struct ChangeLog<Key: Hashable & Sendable>: Sendable {
    private var entries: [Entry] = []
    private var latest: [Key: UInt64] = [:]

    private struct Entry: Sendable {
        var version: UInt64
        var key: Key
    }

    /// Every key ever recorded.
    var keys: Dictionary<Key, UInt64>.Keys { latest.keys }

    /// `key` changed at `version` (versions never go down).
    mutating func record(_ key: Key, at version: UInt64) {
        assert(entries.last.map { $0.version <= version } ?? true, "a change log's versions never go down")
        entries.append(Entry(version: version, key: key))
        latest[key] = version
        if entries.count > 4 * latest.count + 1_024 {
            entries.removeAll { latest[$0.key] != $0.version }
        }
    }

    /// The keys whose latest change is after `version`, each once, oldest change first.
    func changed(since version: UInt64) -> [Key] {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].version <= version { low = middle + 1 } else { high = middle }
        }
        var seen = Set<Key>()
        return entries[low...].compactMap { entry in
            latest[entry.key] == entry.version && seen.insert(entry.key).inserted ? entry.key : nil
        }
    }
}
