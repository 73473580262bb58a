import ArgumentParser
import City
import Foundation
import Randomness
import RideDispatch
import Scenarios
import Simulation

/// `ribcity bench dispatch`: one matching round with many drivers and open requests (greedy and
/// optimal, on contraction hierarchies and on plain Dijkstra), and SUMO's reference run
/// in-process with both strategies beside SUMO's published figures.
struct DispatchBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dispatch",
        abstract: "Matching time (5,000 drivers, 1,000 open requests) and SUMO's reference run in-process.",
        discussion: """
            Examples:
              ribcity bench dispatch
            """
    )

    @Option(help: "OpenStreetMap file for the matching round (default: the SUMO reference grid).")
    var city: String?

    @Option(help: "Idle drivers in the matching round.")
    var drivers = 5_000

    @Option(help: "Open requests in the matching round.")
    var requests = 1_000

    @Option(help: "Seed.")
    var seed: UInt64 = 1

    func run() throws {
        let graph =
            try city.map { try ImportedCity(file: $0).network.graph }
            ?? GridCity(width: 5_000, height: 5_000, blockLength: 250, speedKmh: 50).build()
        print(
            "matching round: \(drivers) idle drivers, \(requests) open requests, \(graph.nodeCount) nodes"
                + " (\(city.map { ($0 as NSString).lastPathComponent } ?? "SUMO grid")); "
                + "greedy: the 8 nearest idle drivers per request"
        )
        let hierarchy = ContractionHierarchy(graph: graph)
        var rows: [(String, Double, Int, Double)] = []
        for (label, strategy, planner, candidates) in [
            (
                "greedy, plain Dijkstra", MatchingStrategy.greedy(interval: 60), PathFinder(graph: graph) as any RoutePlanner,
                Int?.none
            ),
            (
                "greedy, CH two-way search", .greedy(interval: 60), SearchingPlanner(HierarchyQuery(hierarchy: hierarchy)),
                nil
            ),
            ("greedy, CH labels", .greedy(interval: 60), HierarchyQuery(hierarchy: hierarchy), nil),
            ("batched (8 candidates), CH", .batched(window: 60), HierarchyQuery(hierarchy: hierarchy), 8),
            ("batched (16 candidates), CH", .batched(window: 60), HierarchyQuery(hierarchy: hierarchy), 16),
            ("batched (32 candidates), CH", .batched(window: 60), HierarchyQuery(hierarchy: hierarchy), 32),
        ] {
            let (seconds, offers, pickup) = try matchingRound(
                graph: graph, planner: planner, strategy: strategy, candidates: candidates)
            rows.append((label, seconds, offers, pickup))
        }
        let baseline = rows[0].1
        for (label, seconds, offers, pickup) in rows {
            print(
                "  " + label.padding(toLength: 36, withPad: " ", startingAt: 0)
                    + String(
                        format: "%8.1f ms (%5.2f× plain-Dijkstra greedy)  %5d offers, mean pickup %5.1f s",
                        seconds * 1000, seconds / baseline, offers, pickup))
        }

        print(
            "\nSUMO's reference run in-process (5 km grid, 200 taxis, 2,000 requests in an hour; SUMO: about 18 s, "
                + "about 60 % served within the hour):"
        )
        for strategy in [MatchingStrategy.greedy(interval: 60), .batched(window: 60)] {
            let clock = ContinuousClock()
            let start = clock.now
            let result = Simulation(scenario: .sumoReference(seed: seed, strategy: strategy)).run()
            let wall = (clock.now - start) / .seconds(1)
            let kpis = result.kpis
            print(
                "  " + strategy.description.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + String(
                        format: " wall %.2f s (%.0f× faster than SUMO's 18 s); served within the hour %.1f %% (SUMO ≈ 60 %%); "
                            + "pickup wait p50 %.0f s p95 %.0f s; deadhead %.1f %%; invariants %@",
                        wall, 18 / wall,
                        100 * Double(kpis.completedWithinDuration) / Double(kpis.requests),
                        kpis.pickupWait.percentile(0.5), kpis.pickupWait.percentile(0.95), 100 * kpis.deadheadShare,
                        (result.invariantsHeld ? "held" : "BROKEN") as NSString))
        }
    }

    /// Times one matching round: returns its wall seconds, offers made and mean pickup seconds.
    private func matchingRound(
        graph: RoadGraph, planner: any RoutePlanner, strategy: MatchingStrategy,
        candidates: Int? = nil
    ) throws -> (Double, Int, Double) {
        var configuration = DispatchConfiguration()
        configuration.strategy = strategy
        configuration.maxPickupSeconds = 1_800
        if let candidates { configuration.batchCandidatesPerRequest = candidates }
        let engine = DispatchEngine(planner: planner, configuration: configuration)
        var random = SeededGenerator(seed: seed)
        for index in 0..<drivers {
            try engine.driverOnline(DriverID(index), at: Int.random(in: 0..<graph.nodeCount, using: &random), now: 0)
        }
        for index in 0..<requests {
            let origin = Int.random(in: 0..<graph.nodeCount, using: &random)
            let destination = Int.random(in: 0..<graph.nodeCount, using: &random)
            try engine.submit(RideRequest(id: RequestID(index), rider: index, origin: origin, destination: destination), now: 1)
        }
        _ = engine.takeEvents()
        let clock = ContinuousClock()
        let start = clock.now
        engine.advance(to: 60)
        let seconds = (clock.now - start) / .seconds(1)
        let pickups = engine.takeEvents().compactMap { timed -> Double? in
            if case .offered(_, _, _, let pickup) = timed.event { return pickup }
            return nil
        }
        return (seconds, pickups.count, pickups.reduce(0, +) / Double(max(1, pickups.count)))
    }
}

/// The hierarchy timing every pair by its two-way search instead of its labels: the baseline
/// that shows what the labels save a matching round.
private final class SearchingPlanner: RoutePlanner {
    let base: HierarchyQuery
    var graph: RoadGraph { base.graph }
    init(_ base: HierarchyQuery) { self.base = base }
    func route(from start: Int, to end: Int) -> Route? { base.route(from: start, to: end) }
    func travelTime(from start: Int, to end: Int) -> Double? { base.searchedTravelTime(from: start, to: end) }
}
