import City
import Randomness
import RideDispatch

/// How simulated riders behave: how long they wait, and what they ask for.
public struct RiderBehaviour: Sendable, Equatable {
    /// Seconds a rider waits for a pickup before cancelling, drawn uniformly from this range.
    public var patience: ClosedRange<Double>
    /// Share of rides asked for as POOL.
    public var poolShare: Double
    /// Share of rides booked ahead, and how far ahead (seconds).
    public var scheduledShare: Double
    public var bookedAhead: ClosedRange<Double>

    public init(
        patience: ClosedRange<Double>, poolShare: Double, scheduledShare: Double,
        bookedAhead: ClosedRange<Double> = 1_200...3_600
    ) {
        self.patience = patience
        self.poolShare = poolShare
        self.scheduledShare = scheduledShare
        self.bookedAhead = bookedAhead
    }
}

/// How simulated drivers behave: how often they accept and how fast they answer.
public struct DriverBehaviour: Sendable, Equatable {
    public var acceptance: ClosedRange<Double>
    public var responseSeconds: ClosedRange<Double>

    public init(acceptance: ClosedRange<Double>, responseSeconds: ClosedRange<Double>) {
        self.acceptance = acceptance
        self.responseSeconds = responseSeconds
    }
}

extension Scenario {
    /// A scenario on any road graph: `driverCount` drivers starting where rides start (drawn
    /// from the trips' origins), the rides given, riders and drivers behaving as described.
    public static func city(
        name: String, graph: RoadGraph, driverCount: Int, trips: [TripDemand], duration: Double,
        dispatch: DispatchConfiguration, riders: RiderBehaviour,
        drivers behaviour: DriverBehaviour, seed: UInt64
    ) -> Scenario {
        var random = SeededGenerator(seed: seed)
        let drivers = Self.drivers(count: driverCount, graph: graph, trips: trips, behaviour: behaviour, using: &random)
        let rides = trips.map { trip -> TripDemand in
            var ride = trip
            ride.patienceSeconds = ride.patienceSeconds ?? Double.random(in: riders.patience, using: &random)
            if Double.random(in: 0..<1, using: &random) < riders.poolShare { ride.product = .pool }
            if Double.random(in: 0..<1, using: &random) < riders.scheduledShare {
                ride.pickupAt = ride.time + Double.random(in: riders.bookedAhead, using: &random)
            }
            return ride
        }
        return Scenario(
            name: name, graph: graph, drivers: drivers, trips: rides, dispatch: dispatch, duration: duration, seed: seed)
    }

    /// The scenario ``city(name:graph:driverCount:trips:duration:dispatch:riders:drivers:seed:)``
    /// made, from the rides it drew (its `trips`, as another process handed them over): the same
    /// drivers, since they are drawn first from the seed and only from where rides start.
    public static func city(
        name: String, graph: RoadGraph, driverCount: Int, drawnRides rides: [TripDemand], duration: Double,
        dispatch: DispatchConfiguration, drivers behaviour: DriverBehaviour, seed: UInt64
    ) -> Scenario {
        var random = SeededGenerator(seed: seed)
        let drivers = Self.drivers(count: driverCount, graph: graph, trips: rides, behaviour: behaviour, using: &random)
        return Scenario(
            name: name, graph: graph, drivers: drivers, trips: rides, dispatch: dispatch, duration: duration, seed: seed)
    }

    private static func drivers(
        count: Int, graph: RoadGraph, trips: [TripDemand], behaviour: DriverBehaviour, using random: inout SeededGenerator
    ) -> [SimulatedDriver] {
        (0..<count).map { index in
            SimulatedDriver(
                id: DriverID(index),
                startNode: trips.isEmpty
                    ? Int.random(in: 0..<graph.nodeCount, using: &random)
                    : trips[Int.random(in: 0..<trips.count, using: &random)].origin,
                acceptance: Double.random(in: behaviour.acceptance, using: &random),
                responseSeconds: Double.random(in: behaviour.responseSeconds, using: &random))
        }
    }
}
