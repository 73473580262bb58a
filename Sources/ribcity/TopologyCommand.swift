import ArgumentParser
import Foundation
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

    func run() throws {
        var failed = 0
        for file in files {
            do {
                let topology = try TopologyReader.read(path: file)
                print("\(file): valid — \(topology.summary)")
            } catch {
                print("error: \(error)")
                failed += 1
            }
        }
        if failed > 0 { throw ExitCode.failure }
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
