import ArgumentParser
import City
import Foundation

/// `ribcity bench city FILE`: import time and point-to-point ETA queries per second with plain
/// Dijkstra on a real network — the baseline faster routing will be compared against.
struct CityBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city",
        abstract: "OpenStreetMap import time and plain-Dijkstra ETA queries per second on one core."
    )

    @Argument(help: "The OpenStreetMap XML file, plain or gzip.")
    var file: String

    @Option(help: "Random origin–destination pairs to route.")
    var queries = 2_000

    @Option(help: "Seed for the pairs.")
    var seed: UInt64 = 1

    func run() throws {
        let city = try ImportedCity(file: file)
        let graph = city.network.graph
        var generator = SeededGenerator(seed: seed)
        let pairs = (0..<queries).map { _ in
            (Int.random(in: 0..<graph.nodeCount, using: &generator), Int.random(in: 0..<graph.nodeCount, using: &generator))
        }
        let finder = PathFinder(graph: graph)
        var total = 0.0
        let seconds = ContinuousClock().measure {
            for (from, to) in pairs { total += finder.travelTime(from: from, to: to) ?? 0 }
        } / .seconds(1)
        print(String(format: "\(file): \(graph.nodeCount) nodes, \(graph.edgeCount) edges; import %.2f s", city.seconds))
        print(String(format: "plain Dijkstra: %d queries in %.2f s = %.0f ETA queries/s (mean ETA %.0f s)",
                     queries, seconds, Double(queries) / seconds, total / Double(queries)))
    }
}
