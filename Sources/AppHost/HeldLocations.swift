import Wire

/// The location updates a host's apps made at one simulated instant and not yet sent, by dispatch
/// shard. A fleet reports on shared instants (``DriverApp/LocationCadence``), so a host sends an
/// instant's reports to each shard in one message (`LocationReports`; a lone one as the plain
/// `LocationUpdate`) instead of a message per car: before anything else it sends (the order of
/// what it sends is kept) and when the instant moves on.
struct HeldLocations {
    /// A message to send: its shard, its body, and the instant the updates in it were made.
    struct Release: Equatable {
        var shard: Int
        var body: Envelope.OneOf_Body
        var time: Double
    }

    private var updates: [Int: [LocationUpdate]] = [:]
    private var time = 0.0

    var isEmpty: Bool { updates.isEmpty }

    /// Holds `update`, made at `time`, for `shard`; returns what was held from an earlier instant,
    /// to send first.
    mutating func hold(_ update: LocationUpdate, for shard: Int, at time: Double) -> [Release] {
        let earlier = time != self.time ? release() : []
        self.time = time
        updates[shard, default: []].append(update)
        return earlier
    }

    /// Everything held, a message per shard in shard order; holds nothing after.
    mutating func release() -> [Release] {
        defer { updates = [:] }
        return updates.sorted { $0.key < $1.key }.map { shard, updates in
            let body: Envelope.OneOf_Body =
                updates.count == 1 ? .locationUpdate(updates[0]) : .locationReports(LocationReports.with { $0.updates = updates })
            return Release(shard: shard, body: body, time: time)
        }
    }
}
