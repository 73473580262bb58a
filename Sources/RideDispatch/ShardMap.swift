import City

/// Who owns what in sharded dispatch: the city's zones (the surge grid) and the regions they are
/// split into, one per shard. Every process computes the same map from the same topology, so a
/// host knows which shard to ask for a pickup or a driver without being told.
public struct ShardMap: Sendable {
    public let zones: ZoneGrid
    public let regions: DispatchRegions

    public init(zones: ZoneGrid, regions: DispatchRegions) {
        precondition(regions.regionOfZone.count == zones.zoneCount, "the regions are of these zones")
        self.zones = zones
        self.regions = regions
    }

    /// The map of `shards` regions of `zones` balanced by `weights` (one per zone: the demand
    /// expected in it); fewer regions when there are fewer zones than shards.
    public init(zones: ZoneGrid, weights: [Double], shards: Int) {
        self.init(
            zones: zones,
            regions: DispatchRegions(
                columns: zones.columns, rows: zones.rows, weights: weights, count: min(max(1, shards), zones.zoneCount)))
    }

    /// How many shards the map is for.
    public var shards: Int { regions.regions.count }

    /// The shard whose region holds road node `node`.
    public func shard(ofNode node: Int) -> Int { regions.region(ofZone: zones.zone(of: node)) }
}
