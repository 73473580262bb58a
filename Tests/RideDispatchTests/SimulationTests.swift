import City
import RideDispatch
import Scenarios
import TestSupport
import Testing

@testable import Simulation

@Suite("In-process runs: invariants on randomised cities, determinism, SUMO's reference run")
struct SimulationTests {
    /// A busy little city where everything happens: shifts ending mid-trip, drivers declining or
    /// letting offers expire, impatient riders, shared and scheduled rides.
    static func chaotic(seed: UInt64, strategy: MatchingStrategy, rebalancing: Bool = false) -> Scenario {
        let graph = GridCity(width: 3_000, height: 3_000, blockLength: 250, speedKmh: 40).build()
        var random = SplitMix(seed: seed)
        let drivers = (0..<40).map { index in
            SimulatedDriver(
                id: DriverID(index), startNode: Int.random(in: 0..<graph.nodeCount, using: &random),
                shiftStart: Double.random(in: 0..<300, using: &random),
                shiftEnd: index % 4 == 0 ? Double.random(in: 600..<1_800, using: &random) : .infinity,
                acceptance: Double.random(in: 0.6...1, using: &random),
                responseSeconds: Double.random(in: 0..<20, using: &random))
        }
        let trips = (0..<400).map { _ -> TripDemand in
            let time = Double.random(in: 0..<1_800, using: &random)
            let scheduled = Double.random(in: 0..<1, using: &random) < 0.1
            return TripDemand(
                time: time, origin: Int.random(in: 0..<graph.nodeCount, using: &random),
                destination: Int.random(in: 0..<graph.nodeCount, using: &random),
                product: Double.random(in: 0..<1, using: &random) < 0.3 ? .pool : .standard,
                pickupAt: scheduled ? time + Double.random(in: 600...2_400, using: &random) : nil,
                patienceSeconds: Double.random(in: 120...900, using: &random))
        }.sorted { $0.time < $1.time }
        var dispatch = DispatchConfiguration()
        dispatch.strategy = strategy
        dispatch.offerTimeoutSeconds = 12
        if rebalancing { dispatch.rebalancing = .towardUnmetDemand(interval: 120, maxMoves: 5) }
        return Scenario(
            name: "chaotic", graph: graph, drivers: drivers, trips: trips, dispatch: dispatch, duration: 1_800, seed: seed)
    }

    @Test(
        "Every request ends exactly once, no driver is double-booked, fares are conserved",
        arguments: [
            (MatchingStrategy.greedyOnArrival, false), (.greedy(interval: 30), false),
            (.batched(window: 30), false), (.batched(window: 20), true),
        ], [UInt64(1), 2])
    func invariantsHold(configuration: (MatchingStrategy, Bool), seed: UInt64) {
        let scenario = Self.chaotic(seed: seed, strategy: configuration.0, rebalancing: configuration.1)
        let simulation = Simulation(scenario: scenario)
        let result = simulation.run()
        #expect(result.violations.isEmpty, "\(result.violations.prefix(3))")
        #expect(result.unfinished.isEmpty)
        #expect(result.refusals.isEmpty, "\(result.refusals.prefix(3))")
        let kpis = result.kpis
        #expect(kpis.requests == 400)
        #expect(kpis.completed + kpis.cancelled + kpis.rejected == 400)
        #expect(kpis.completed > 100, "the city works: \(kpis.completed) completed")
        #expect(kpis.cancelledByRider > 0 && kpis.cancelledByDriver + kpis.cancelledByRider == kpis.cancelled)
        #expect(kpis.ridersPaidCents == kpis.driversEarnedCents + kpis.platformCents)
        #expect(simulation.checker.ridersPaidCents == kpis.ridersPaidCents)
    }

    @Test("The same seed gives the same run, event for event")
    func deterministic() {
        let first = Simulation(scenario: Self.chaotic(seed: 5, strategy: .batched(window: 30)), keepLog: true)
        let second = Simulation(scenario: Self.chaotic(seed: 5, strategy: .batched(window: 30)), keepLog: true)
        _ = first.run()
        _ = second.run()
        #expect(first.log.count > 1_000)
        #expect(first.log == second.log)
        let other = Simulation(scenario: Self.chaotic(seed: 6, strategy: .batched(window: 30)), keepLog: true)
        _ = other.run()
        #expect(other.log != first.log)
    }

    @Test("SUMO's reference run: 200 taxis, 2,000 requests in an hour, greedy every 60 s; all served, most within the hour")
    func sumoReference() {
        let scenario = Scenario.sumoReference()
        #expect(scenario.graph.nodeCount == 441 && scenario.drivers.count == 200 && scenario.trips.count == 2_000)
        #expect(
            scenario.trips.allSatisfy {
                scenario.graph.positions[$0.origin].distance(to: scenario.graph.positions[$0.destination]) >= 500
            })
        let result = Simulation(scenario: scenario).run()
        #expect(result.violations.isEmpty && result.unfinished.isEmpty && result.refusals.isEmpty)
        #expect(result.kpis.completed == 2_000)
        #expect(result.kpis.completedWithinDuration > 1_200, "SUMO serves about 60 % within the hour")
    }
}
