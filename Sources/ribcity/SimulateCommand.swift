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

            Examples:
              ribcity simulate --strategy batched
              ribcity simulate --topology Topologies/downtown.yaml --drivers 200
              ribcity simulate --city Topologies/data/manhattan-south-roads.osm.pbf \\
                --synthetic 1200
              ribcity simulate --city Topologies/data/manhattan-south-roads.osm.pbf \\
                --replay Topologies/data/nyc-yellow-2016-01-sample.csv --duration 86400
            """
    )

    enum Strategy: String, ExpressibleByArgument, CaseIterable {
        case greedy, batched, onArrival = "on-arrival"
    }

    @Argument(help: "A topology (Topologies/*.yaml) to run in-process: its city, demand, drivers and dispatch settings.")
    var topologyFile: String?

    @Option(name: .customLong("topology"), help: "The same topology, named as an option.")
    var topologyOption: String?

    /// The topology, given first or as --topology (the same way as every command takes it).
    var topology: String? { topologyFile ?? topologyOption }

    func validate() throws {
        if let topologyFile, let topologyOption, topologyFile != topologyOption {
            throw ValidationError("Two topologies: \(topologyFile) and --topology \(topologyOption); give one.")
        }
    }

    @Option(help: "An OpenStreetMap file (XML, gzip or PBF) to run on instead of the SUMO reference grid.")
    var city: String?

    @Option(help: "Trip records to replay on --city (TLC yellow/green or Uber 2014 CSV).")
    var replay: String?

    @Option(help: "Trip records to fit destinations on, for pickup-only replays (TLC CSV).")
    var destinations: String?

    @Option(help: "Synthetic demand on --city: requests per hour at the busiest hour.")
    var synthetic: Double?

    @Option(help: "Drivers (default 300 on --city; with --topology, replaces the file's).")
    var drivers: Int?

    @Option(help: "Seconds during which rides are requested (default 3600; with --topology, replaces the file's).")
    var duration: Double?

    @Option(help: "Time of day the run starts at, in hours (default 8; with --topology, replaces the file's).")
    var startHour: Double?

    @Option(help: "Matching: greedy (every --interval s), batched (optimal over --interval s), on-arrival (default greedy).")
    var strategy: Strategy?

    @Option(help: "Seconds between matching rounds (default 60).")
    var interval: Double?

    @Flag(help: "Reposition idle drivers toward unmet demand.")
    var rebalance = false

    @Option(help: "Seed for the scenario's random choices (default 1).")
    var seed: UInt64?

    func run() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let setup = try scenario()
        let prepared = clock.now
        // The same kept routing hierarchies as dispatch reads in a launched city.
        let simulation = Simulation(scenario: setup, hierarchies: .standard)
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

    /// The matching strategy the options ask for, given the interval to use when they name none.
    private func matching(defaultInterval: Double) -> MatchingStrategy? {
        guard strategy != nil || interval != nil else { return nil }
        let every = interval ?? defaultInterval
        return switch strategy ?? .greedy {
        case .greedy: .greedy(interval: every)
        case .batched: .batched(window: every)
        case .onArrival: .greedyOnArrival
        }
    }

    private func scenario() throws -> Scenario {
        let plan: Topology
        if let topology {
            guard city == nil, replay == nil, synthetic == nil, destinations == nil else {
                throw ValidationError(
                    "--topology takes the city and demand from the file: drop --city, --replay, --synthetic and --destinations")
            }
            plan = try overriding(readTopology(topology))
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
            var dispatch = DispatchConfiguration()
            dispatch.strategy = matching(defaultInterval: 60) ?? .greedy(interval: 60)
            if rebalance { dispatch.rebalancing = .towardUnmetDemand(interval: 120, maxMoves: 20) }
            let name =
                ((city as NSString).lastPathComponent)
                + (replay.map { " replaying " + ($0 as NSString).lastPathComponent } ?? " synthetic")
            plan = Topology(
                name: name, city: .openStreetMap(path: city), duration: duration ?? 3_600,
                startSecondOfDay: (startHour ?? 8) * 3_600, seed: seed ?? 1, dispatch: dispatch,
                drivers: Topology.DriverPlan(perProcess: drivers ?? 300), riders: Topology.RiderPlan(demand: demand))
        } else {
            guard replay == nil, synthetic == nil else { throw ValidationError("--replay and --synthetic need --city") }
            guard drivers == nil, duration == nil, startHour == nil else {
                throw ValidationError(
                    "the SUMO reference run has its own 200 taxis over one hour: --drivers, --duration and --start-hour need --city or --topology"
                )
            }
            var reference = Scenario.sumoReference(
                seed: seed ?? 1, strategy: matching(defaultInterval: 60) ?? .greedy(interval: 60))
            if rebalance { reference.dispatch.rebalancing = .towardUnmetDemand(interval: 120, maxMoves: 20) }
            return reference
        }
        let prepared = try prepareTopology(plan)
        for report in prepared.recordReports { print(report) }
        for line in prepared.leftOutReport { print(line) }
        return prepared.scenario
    }

    /// The topology with every option given on the command line in place of the file's, each
    /// one said on the terminal.
    private func overriding(_ file: Topology) -> Topology {
        var plan = file
        var changes: [String] = []
        if let strategy = matching(defaultInterval: file.dispatch.strategy.interval ?? 60) {
            plan.dispatch.strategy = strategy
            changes.append("matching \(strategy.description)")
        }
        if rebalance {
            plan.dispatch.rebalancing = .towardUnmetDemand(interval: 120, maxMoves: 20)
            changes.append("rebalancing")
        }
        if let drivers {
            plan.drivers.processes = 1
            plan.drivers.perProcess = drivers
            changes.append("\(drivers) drivers")
        }
        if let duration {
            plan.duration = duration
            changes.append("\(Int(duration)) s of requests")
        }
        if let startHour {
            plan.startSecondOfDay = startHour * 3_600
            changes.append(String(format: "starting at %02d:%02d", Int(startHour), Int(startHour * 60) % 60))
        }
        if let seed {
            plan.seed = seed
            changes.append("seed \(seed)")
        }
        if !changes.isEmpty {
            print("\(file.name) from \(file.file), with \(changes.joined(separator: ", ")) from the command line")
        }
        return plan
    }
}
