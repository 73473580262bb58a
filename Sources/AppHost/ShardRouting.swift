import Wire

/// Which dispatch shard each of a host's apps talks to (docs/ARCHITECTURE.md, "Sharded
/// dispatch"): a rider's to the shard of its pickup, a driver's to the shard where it came online
/// until that shard hands it over. Pure bookkeeping, no sockets; one dispatch means shard 0 for all.
public struct ShardRouting: Sendable {
    /// How many shards there are.
    public let shards: Int
    /// The shard whose region holds a position (every process computes the same map).
    private let shardOf: @Sendable (LatLon) -> Int
    /// The shard each app talks to, once known.
    private var owners: [String: Int] = [:]

    /// One dispatch: everything goes to shard 0.
    public static let single = ShardRouting(shards: 1) { _ in 0 }

    public init(shards: Int, shardOf: @escaping @Sendable (LatLon) -> Int) {
        precondition(shards >= 1, "at least one shard")
        self.shards = shards
        self.shardOf = shardOf
    }

    /// The shard `app`'s message goes to. A quote or ride request goes where its pickup is, a
    /// driver coming online where it stands, and each makes that shard the app's; anything else
    /// goes to the app's shard.
    public mutating func shard(for body: Envelope.OneOf_Body, of app: String) -> Int {
        guard shards > 1 else { return 0 }
        let position: LatLon? =
            switch body {
            case .quoteRequest(let quote): quote.pickup
            case .rideRequest(let ride): ride.pickup
            case .driverOnline(let online): online.location
            default: nil
            }
        if let position {
            let shard = min(max(shardOf(position), 0), shards - 1)
            owners[app] = shard
            return shard
        }
        return owners[app] ?? 0
    }

    /// The shard `app` talks to now (0 until it is known).
    public func shard(of app: String) -> Int { owners[app] ?? 0 }

    /// `app`'s shard let it go to `shard` (a driver idle in another region).
    public mutating func handOver(_ app: String, to shard: Int) {
        guard (0..<shards).contains(shard) else { return }
        owners[app] = shard
    }

    /// `app` is done: nothing more goes anywhere for it.
    public mutating func forget(_ app: String) { owners[app] = nil }
}
