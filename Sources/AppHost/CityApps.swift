import City
import DriverApp
import RiderApp
import Scenarios
import Wire

/// The apps of one rider or driver process of a topology: its share of the topology's drivers
/// (in blocks: process 0 gets the first), or of its riders (every `processes`-th ride). Every
/// process prepares the same topology with the same seed, so they agree on who is whom.
public enum CityApps {
    /// The drivers of process `index` of `processes`, starting where the scenario puts them.
    public static func drivers(of prepared: PreparedTopology, process index: Int, of processes: Int) -> [ScheduledApp] {
        let scenario = prepared.scenario
        let graph = scenario.graph
        return ProcessShare(index: index, of: processes).drivers(of: scenario.drivers.count).map { number in
            let driver = scenario.drivers[number]
            let profile = DriverProfile(
                id: WireIDs.driver(number), startNode: driver.startNode, shiftStart: driver.shiftStart,
                shiftEnd: driver.shiftEnd, acceptance: driver.acceptance,
                responseSeconds: driver.responseSeconds, seed: scenario.seed &+ UInt64(number),
                locationEvery: prepared.topology.drivers.locationEverySeconds)
            return ScheduledApp(at: driver.shiftStart) { time, host in
                DriverApp(profile: profile, graph: graph, at: time, beside: host)
            }
        }
    }

    /// The riders of process `index` of `processes`, each opening the app when they ask for a
    /// ride. With `after`, rides asked for before that simulated time are left out (a restarted
    /// process: they were its previous run's, and dispatch ended them with that run's session).
    public static func riders(
        of prepared: PreparedTopology, process index: Int, of processes: Int,
        after: Double? = nil
    ) -> [ScheduledApp] {
        let scenario = prepared.scenario
        let positions = scenario.graph.positions
        let settings = prepared.topology.features.mapValues { (share: $0.share, failRate: $0.failRate) }
        let share = ProcessShare(index: index, of: processes)
        return scenario.trips.indices.compactMap { number -> ScheduledApp? in
            guard share.takesRide(number) else { return nil }
            let trip = scenario.trips[number]
            if let after, trip.time < after { return nil }
            let profile = RiderProfile(
                id: WireIDs.rider(number), name: "Rider \(number)", requestAt: trip.time,
                pickup: positions[trip.origin], dropoff: positions[trip.destination],
                product: trip.product == .pool ? .pool : .uberX, scheduledPickup: trip.pickupAt,
                patience: trip.patienceSeconds, seed: scenario.seed &+ UInt64(number), number: number,
                cityRiders: scenario.trips.count)
            let features = RiderFeatures.draw(settings, rider: number, seed: scenario.seed)
            return ScheduledApp(at: trip.time) { time, host in
                RiderApp(profile: profile, features: features.flags, faults: features.faults, at: time, beside: host)
            }
        }
    }
}
