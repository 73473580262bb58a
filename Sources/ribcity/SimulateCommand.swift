import ArgumentParser
import Foundation
import RideDispatch
import Simulation

/// `ribcity simulate`: runs a scenario in one process (the dispatch engine with simulated
/// drivers and riders) and prints its KPIs, invariant checks and wall time.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a scenario in-process: the dispatch engine with simulated drivers and riders."
    )

    enum Strategy: String, ExpressibleByArgument, CaseIterable {
        case greedy, batched, onArrival = "on-arrival"
    }

    @Option(help: "The scenario: sumo-reference (SUMO's taxi reference run).")
    var scenario = "sumo-reference"

    @Option(help: "Matching: greedy (every --interval s), batched (optimal over --interval s), on-arrival.")
    var strategy: Strategy = .greedy

    @Option(help: "Seconds between matching rounds.")
    var interval = 60.0

    @Option(help: "Seed for the scenario's random choices.")
    var seed: UInt64 = 1

    func run() throws {
        guard scenario == "sumo-reference" else { throw ValidationError("unknown scenario '\(scenario)'; known: sumo-reference") }
        let matching: MatchingStrategy = switch strategy {
        case .greedy: .greedy(interval: interval)
        case .batched: .batched(window: interval)
        case .onArrival: .greedyOnArrival
        }
        let clock = ContinuousClock()
        let start = clock.now
        let setup = Scenario.sumoReference(seed: seed, strategy: matching)
        let simulation = Simulation(scenario: setup)
        let result = simulation.run()
        let wall = (clock.now - start) / .seconds(1)
        print(String(format: "%@, %@, seed %llu: %d drivers, %d requests over %.0f s; ended at t=%.0f s; %d events; wall %.2f s",
                     setup.name, matching.description, seed, setup.drivers.count, setup.trips.count,
                     setup.duration, result.endTime, result.eventCount, wall))
        for line in result.kpis.summaryLines { print("  " + line) }
        print("  invariants          \(result.violations.isEmpty && result.unfinished.isEmpty ? "all held" : "BROKEN")"
              + "; \(result.unfinished.count) unfinished; \(result.refusals.count) refused commands")
        for violation in result.violations.prefix(5) { print("    " + violation.description) }
        for refusal in result.refusals.prefix(5) { print("    refused: " + refusal) }
        if !result.violations.isEmpty || !result.unfinished.isEmpty { throw ExitCode.failure }
    }
}
