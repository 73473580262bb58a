import ArgumentParser
import City
import Demand
import Foundation
import RideDispatch
import Scenarios
import Simulation
import Topology

/// `ribcity simulate`: runs a scenario in one process (the dispatch engine with simulated
/// drivers and riders) and prints its KPIs, invariant checks and wall time.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a scenario in-process: the dispatch engine with simulated drivers and riders.",
        discussion: """
            Without --city: SUMO's taxi reference run (5 km grid, 200 taxis, 2,000 requests in an hour).
            With --city: real streets, with rides replayed from --replay (TLC or Uber records, folded \
            into one day from --start-hour) or drawn synthetically (--synthetic requests per hour).
            """
    )

    enum Strategy: String, ExpressibleByArgument, CaseIterable {
        case greedy, batched, onArrival = "on-arrival"
    }

    @Option(help: "A topology (Topologies/*.yaml) to run in-process: its city, demand, drivers and dispatch settings.")
    var topology: String?

    @Option(help: "An OpenStreetMap file (XML, gzip or PBF) to run on instead of the SUMO reference grid.")
    var city: String?

    @Option(help: "Trip records to replay on --city (TLC yellow/green or Uber 2014 CSV).")
    var replay: String?

    @Option(help: "Trip records to fit destinations on, for pickup-only replays (TLC CSV).")
    var destinations: String?

    @Option(help: "Synthetic demand on --city: requests per hour at the busiest hour.")
    var synthetic: Double?

    @Option(help: "Drivers on --city.")
    var drivers = 300

    @Option(help: "Seconds during which rides are requested on --city.")
    var duration = 3_600.0

    @Option(help: "Time of day the run starts at, in hours (replays and profiles).")
    var startHour = 8.0

    @Option(help: "Matching: greedy (every --interval s), batched (optimal over --interval s), on-arrival.")
    var strategy: Strategy = .greedy

    @Option(help: "Seconds between matching rounds.")
    var interval = 60.0

    @Flag(help: "Reposition idle drivers toward unmet demand.")
    var rebalance = false

    @Option(help: "Seed for the scenario's random choices.")
    var seed: UInt64 = 1

    func run() throws {
        let matching: MatchingStrategy =
            switch strategy {
            case .greedy: .greedy(interval: interval)
            case .batched: .batched(window: interval)
            case .onArrival: .greedyOnArrival
            }
        let clock = ContinuousClock()
        let start = clock.now
        let setup = try scenario(matching)
        let prepared = clock.now
        let simulation = Simulation(scenario: setup)
        let result = simulation.run()
        let wall = (clock.now - start) / .seconds(1)
        print(
            String(
                format: "%@, %@, seed %llu: %d drivers, %d requests over %.0f s; ended at t=%.0f s; %d events; "
                    + "wall %.2f s (%.2f s preparing the city and demand)",
                setup.name, setup.dispatch.strategy.description, setup.seed, setup.drivers.count, setup.trips.count,
                setup.duration, result.endTime, result.eventCount, wall, (prepared - start) / .seconds(1)))
        for line in result.kpis.summaryLines { print("  " + line) }
        print(
            "  invariants          \(result.invariantsHeld ? "all held" : "BROKEN")"
                + "; \(result.unfinished.count) unfinished; \(result.refusals.count) refused commands")
        for violation in result.violations.prefix(5) { print("    " + violation.description) }
        for refusal in result.refusals.prefix(5) { print("    refused: " + refusal) }
        if !result.invariantsHeld { throw ExitCode.failure }
    }

    private func scenario(_ matching: MatchingStrategy) throws -> Scenario {
        var dispatch = DispatchConfiguration()
        dispatch.strategy = matching
        if rebalance { dispatch.rebalancing = .towardUnmetDemand(interval: 120, maxMoves: 20) }
        let plan: Topology
        if let topology {
            guard city == nil, replay == nil, synthetic == nil else {
                throw ValidationError("--topology takes the city and demand from the file")
            }
            plan = try readTopology(topology)
        } else if let city {
            // The options describe a topology: one way to prepare a city and its rides.
            let demand: Topology.DemandSource
            if let replay {
                demand = .replay(records: replay, destinations: destinations)
            } else if let synthetic {
                demand = .synthetic(
                    peakPerHour: synthetic, profile: .flat, hotSpots: [], evenlySpaced: false, minimumTripMetres: 500)
            } else {
                throw ValidationError("--city needs --replay FILE or --synthetic RATE")
            }
            let name =
                ((city as NSString).lastPathComponent)
                + (replay.map { " replaying " + ($0 as NSString).lastPathComponent } ?? " synthetic")
            plan = Topology(
                name: name, city: .openStreetMap(path: city), duration: duration, startSecondOfDay: startHour * 3_600,
                seed: seed, dispatch: dispatch, drivers: Topology.DriverPlan(perProcess: drivers),
                riders: Topology.RiderPlan(demand: demand))
        } else {
            guard replay == nil, synthetic == nil else { throw ValidationError("--replay and --synthetic need --city") }
            var reference = Scenario.sumoReference(seed: seed, strategy: matching)
            reference.dispatch.rebalancing = dispatch.rebalancing
            return reference
        }
        let prepared = try prepareTopology(plan)
        for report in prepared.recordReports { print(report) }
        if !prepared.leftOut.isEmpty { print("rides left out: \(prepared.leftOut.sorted { $0.key < $1.key })") }
        return prepared.scenario
    }
}
