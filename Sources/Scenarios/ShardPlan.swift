import City
import RideDispatch

/// How dispatch would split a scenario's city into shards: the regions, balanced by the rides the
/// scenario draws (the demand every process computes from the same topology and seed), and what
/// share of the rides and the drivers' starts falls in each, and of the rides crosses a border.
public struct ShardPlan: Sendable {
    public let zones: ZoneGrid
    public let regions: DispatchRegions
    /// Per region: its share of the rides (by pickup) and of the drivers (by where they start).
    public let rideShare: [Double]
    public let driverShare: [Double]
    /// The share of the rides whose drop-off is in another region than their pickup.
    public let crossingShare: Double
    /// Each zone's weight: the rides drawn with their pickup in it (what the regions balance).
    public let weights: [Double]
    /// The map of who owns what, for the dispatch shards and the hosts.
    public var map: ShardMap { ShardMap(zones: zones, regions: regions) }

    /// The plan for `shards` shards of `scenario`'s city, in zones of the scenario's surge grid.
    public init(scenario: Scenario, shards: Int) {
        let zones = ZoneGrid(graph: scenario.graph, cellSize: scenario.dispatch.zoneSize)
        var weights = [Double](repeating: 0, count: zones.zoneCount)
        for trip in scenario.trips { weights[zones.zone(of: trip.origin)] += 1 }
        let regions = ShardMap(zones: zones, weights: weights, shards: shards).regions
        var rides = [Double](repeating: 0, count: regions.regions.count)
        var drivers = rides
        var crossing = 0
        for trip in scenario.trips {
            let from = regions.region(ofZone: zones.zone(of: trip.origin))
            rides[from] += 1
            if regions.region(ofZone: zones.zone(of: trip.destination)) != from { crossing += 1 }
        }
        for driver in scenario.drivers { drivers[regions.region(ofZone: zones.zone(of: driver.startNode))] += 1 }
        self.zones = zones
        self.regions = regions
        self.weights = weights
        rideShare = rides.map { $0 / Double(max(1, scenario.trips.count)) }
        driverShare = drivers.map { $0 / Double(max(1, scenario.drivers.count)) }
        crossingShare = Double(crossing) / Double(max(1, scenario.trips.count))
    }
}
