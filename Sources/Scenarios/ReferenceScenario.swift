import City
import Randomness
import RideDispatch

extension Scenario {
    /// SUMO's taxi reference run: a 5 km × 5 km grid of 250 m blocks, one lane each way at
    /// 50 km/h; 200 taxis; 2,000 ride requests spread evenly over one simulated hour, origin and
    /// destination at least 500 m apart; greedy dispatch every 60 s. Taxis always accept and
    /// riders wait as long as it takes, and a drop-off takes 60 s, as in SUMO.
    public static func sumoReference(seed: UInt64 = 1, strategy: MatchingStrategy = .greedy(interval: 60)) -> Scenario {
        let city = GridCity(width: 5_000, height: 5_000, blockLength: 250, speedKmh: 50)
        let graph = city.build()
        var random = SeededGenerator(seed: seed)
        let drivers = (0..<200).map { index in
            SimulatedDriver(id: DriverID(index), startNode: Int.random(in: 0..<graph.nodeCount, using: &random))
        }
        let trips = (0..<2_000).map { index -> TripDemand in
            var origin: Int
            var destination: Int
            repeat {
                origin = Int.random(in: 0..<graph.nodeCount, using: &random)
                destination = Int.random(in: 0..<graph.nodeCount, using: &random)
            } while graph.positions[origin].distance(to: graph.positions[destination]) < 500
            return TripDemand(time: Double(index) * 3_600 / 2_000, origin: origin, destination: destination)
        }
        var dispatch = DispatchConfiguration()
        dispatch.strategy = strategy
        dispatch.maxPickupSeconds = .infinity
        dispatch.maxMatchWaitSeconds = .infinity
        dispatch.candidatesPerRequest = 200
        // SUMO's taxi device stands 60 s at a drop-off (`device.taxi.dropOffDuration`).
        dispatch.dropoffDwellSeconds = 60
        return Scenario(
            name: "sumo-reference", graph: graph, drivers: drivers, trips: trips,
            dispatch: dispatch, duration: 3_600, seed: seed)
    }
}
