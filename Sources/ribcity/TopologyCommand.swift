import ArgumentParser
import Foundation
import Scenarios
import Topology

/// `ribcity topology FILE…`: validates topologies and says what each describes.
struct TopologyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topology",
        abstract: "Validate topology files (Topologies/*.yaml) and summarise them; errors name the file, key, line and reason.",
        discussion: """
            Examples:
              ribcity topology Topologies/*.yaml
            """
    )

    @Argument(help: "Topology files.")
    var files: [String]

    @Option(
        help: ArgumentHelp(
            "Also load each city and its demand and show how dispatch would split it into this many shards: each "
                + "region's zones, its share of the demand and of the drivers, and the rides that cross a border.",
            valueName: "shards"))
    var regions: Int?

    func validate() throws {
        if let regions, !(1...64).contains(regions) { throw ValidationError("--regions \(regions): between 1 and 64 shards") }
    }

    func run() throws {
        var failed = 0
        for file in files {
            do {
                let topology = try TopologyReader.read(path: file)
                print("\(file): valid — \(topology.summary)")
                if let regions { try printRegions(of: topology, shards: regions) }
            } catch let error as BadInput {
                print("error: \(error.description)")
                failed += 1
            } catch {
                print("error: \(error)")
                failed += 1
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }

    private func printRegions(of topology: Topology, shards: Int) throws {
        let prepared = try prepareTopology(topology)
        let plan = ShardPlan(scenario: prepared.scenario, shards: shards)
        print(
            "  \(shards) regions of \(plan.zones.columns) × \(plan.zones.rows) zones of \(Int(plan.zones.cellSize)) m, weighed by "
                + "the \(prepared.scenario.trips.count) rides drawn:")
        for (index, region) in plan.regions.regions.enumerated() {
            print(
                String(
                    format: "    region %d: columns %d–%d, rows %d–%d: %.1f %% of the rides, %.1f %% of the drivers' starts; "
                        + "neighbours %@",
                    index, region.columns.lowerBound, region.columns.upperBound - 1, region.rows.lowerBound,
                    region.rows.upperBound - 1, 100 * plan.rideShare[index], 100 * plan.driverShare[index],
                    plan.regions.neighbours(of: index).map(String.init).joined(separator: ", ")))
        }
        print(String(format: "  rides that end in another region than they start: %.1f %%", 100 * plan.crossingShare))
    }
}

extension Topology {
    /// One line saying what the topology runs.
    var summary: String {
        let streets =
            switch city {
            case .grid(let grid): String(format: "a %.0f × %.0f m grid", grid.width, grid.height)
            case .openStreetMap(let path): (path as NSString).lastPathComponent
            }
        let demandText =
            switch riders.demand {
            case .synthetic(let peak, _, let spots, _, _):
                String(format: "synthetic demand, %.0f/h at peak, %d hot spots", peak, spots.count)
            case .replay(let records, _): "replay of \((records as NSString).lastPathComponent)"
            }
        return String(
            format: "%@ on %@; %d drivers in %d processes, riders in %d processes, %@; %.0f s at %g×; %@",
            name, streets, drivers.total, drivers.processes, riders.processes, demandText, duration, speed,
            dispatch.strategy.description)
    }
}
