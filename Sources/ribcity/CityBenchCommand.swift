import ArgumentParser
import City
import Foundation
import Randomness

/// `ribcity bench city FILE`: import time, contraction time, and point-to-point ETA queries per
/// second on one core — contraction hierarchies against plain Dijkstra on the same pairs, with
/// every answer compared.
struct CityBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city",
        abstract: "OpenStreetMap import time and ETA queries per second: contraction hierarchies vs plain Dijkstra.",
        discussion: """
            Examples:
              ribcity bench city Topologies/data/manhattan-south-roads.osm.pbf
            """
    )

    @Argument(help: "The OpenStreetMap file: XML (plain or gzip) or PBF.")
    var file: String

    @Option(help: "Random origin–destination pairs for plain Dijkstra.")
    var queries = 2_000

    @Option(help: "Random pairs for the contraction hierarchy (more, for a stable figure).")
    var fastQueries = 200_000

    @Option(help: "Seed for the pairs.")
    var seed: UInt64 = 1

    func run() throws {
        let city = try ImportedCity(file: file)
        let graph = city.network.graph
        var generator = SeededGenerator(seed: seed)
        let pairs = (0..<max(queries, fastQueries)).map { _ in
            (Int.random(in: 0..<graph.nodeCount, using: &generator), Int.random(in: 0..<graph.nodeCount, using: &generator))
        }
        print(String(format: "\(file): \(graph.nodeCount) nodes, \(graph.edgeCount) edges; import %.2f s", city.seconds))

        let dijkstra = PathFinder(graph: graph)
        var expected: [Double?] = []
        let plainSeconds =
            ContinuousClock().measure {
                expected = pairs.prefix(queries).map { dijkstra.travelTime(from: $0.0, to: $0.1) }
            } / .seconds(1)
        let plainRate = Double(queries) / plainSeconds
        let mean = expected.compactMap { $0 }.reduce(0, +) / Double(max(1, expected.count))
        print(
            String(
                format: "plain Dijkstra: %d queries in %.2f s = %.0f ETA queries/s (mean ETA %.0f s)",
                queries, plainSeconds, plainRate, mean))

        var hierarchy: ContractionHierarchy?
        let contractSeconds = ContinuousClock().measure { hierarchy = ContractionHierarchy(graph: graph) } / .seconds(1)
        let query = HierarchyQuery(hierarchy: hierarchy!)
        print(
            String(
                format: "contraction hierarchy: built in %.2f s, %d shortcuts (%.2f per segment)",
                contractSeconds, hierarchy!.shortcutCount, Double(hierarchy!.shortcutCount) / Double(graph.edgeCount)))
        var checksum = 0.0
        let fastSeconds =
            ContinuousClock().measure {
                for (from, to) in pairs.prefix(fastQueries) { checksum += query.travelTime(from: from, to: to) ?? 0 }
            } / .seconds(1)
        let fastRate = Double(fastQueries) / fastSeconds
        let mismatches = zip(pairs.prefix(queries), expected).filter { query.travelTime(from: $0.0.0, to: $0.0.1) != $0.1 }.count
        print(
            String(
                format: "contraction hierarchy: %d queries in %.2f s = %.0f ETA queries/s = %.0f× plain Dijkstra; "
                    + "%d of %d answers differ from Dijkstra's (checksum %.0f)",
                fastQueries, fastSeconds, fastRate, fastRate / plainRate, mismatches, queries, checksum))
        if mismatches > 0 { throw ExitCode.failure }
    }
}
