import City
import RideDispatch

/// A simulated driver: where and when they work and how they answer offers.
public struct SimulatedDriver: Sendable, Equatable {
    public var id: DriverID
    public var startNode: Int
    public var shiftStart: Double
    public var shiftEnd: Double
    /// Chance of accepting an offer.
    public var acceptance: Double
    /// Seconds taken to answer an offer (longer than the offer timeout means letting it expire).
    public var responseSeconds: Double

    public init(
        id: DriverID, startNode: Int, shiftStart: Double = 0, shiftEnd: Double = .infinity,
        acceptance: Double = 1, responseSeconds: Double = 0
    ) {
        self.id = id
        self.startNode = startNode
        self.shiftStart = shiftStart
        self.shiftEnd = shiftEnd
        self.acceptance = acceptance
        self.responseSeconds = responseSeconds
    }
}

/// A simulated rider's ride: when they ask, where from and to, and how long they wait for a
/// pickup before cancelling (`nil`: for ever).
public struct TripDemand: Sendable, Equatable {
    public var time: Double
    public var origin: Int
    public var destination: Int
    public var product: RideRequest.Product
    public var pickupAt: Double?
    public var patienceSeconds: Double?

    public init(
        time: Double, origin: Int, destination: Int, product: RideRequest.Product = .standard,
        pickupAt: Double? = nil, patienceSeconds: Double? = nil
    ) {
        self.time = time
        self.origin = origin
        self.destination = destination
        self.product = product
        self.pickupAt = pickupAt
        self.patienceSeconds = patienceSeconds
    }
}

/// Everything a run needs: the streets, the drivers, the demand, dispatch's settings, and how
/// long requests arrive for.
public struct Scenario: Sendable {
    public var name: String
    public var graph: RoadGraph
    public var drivers: [SimulatedDriver]
    public var trips: [TripDemand]
    public var dispatch: DispatchConfiguration
    /// Requests arrive during `0 ..< duration`; the run then goes on until every one has ended.
    public var duration: Double
    public var seed: UInt64
    /// Calibrated travel times, the time of day at second 0 and the kind of day, or `nil` for the
    /// graph's own times.
    public var travelTimes: TravelTimeModel?
    public var startSecondOfDay: Double = 0
    public var day: DayKind = .weekday

    /// The router of each moment of the run (hierarchies for the run's span built now, or read
    /// from `store` when it has them).
    public func travelSchedule(store: HierarchyStore? = nil) -> TravelTimeSchedule {
        .forRun(graph: graph, model: travelTimes, startSecondOfDay: startSecondOfDay, day: day, duration: duration, store: store)
    }

    public init(
        name: String, graph: RoadGraph, drivers: [SimulatedDriver], trips: [TripDemand],
        dispatch: DispatchConfiguration, duration: Double, seed: UInt64
    ) {
        self.name = name
        self.graph = graph
        self.drivers = drivers
        self.trips = trips
        self.dispatch = dispatch
        self.duration = duration
        self.seed = seed
    }
}
