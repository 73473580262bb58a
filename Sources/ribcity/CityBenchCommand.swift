import ArgumentParser
import City
import Foundation
import Randomness

/// `ribcity bench city FILE`: import time, contraction time, and ETA queries per second on one
/// core — plain Dijkstra, the hierarchy's two-way search and its labels on random pairs, on the
/// pairs a dispatch round asks (each pickup and its nearest drivers), and on whole tables (with
/// the bucket many-to-many search too) — every answer compared between routers.
struct CityBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city",
        abstract: "OpenStreetMap import time and ETA queries per second: contraction hierarchies vs plain Dijkstra.",
        discussion: """
            Examples:
              ribcity bench city Topologies/data/manhattan-roads.osm.pbf
              ribcity bench city Topologies/data/manhattan-south-roads.osm.pbf --fast-queries 500000
            """
    )

    @Argument(help: "The OpenStreetMap file: XML (plain or gzip) or PBF.")
    var file: String

    @Option(help: "Random origin–destination pairs for plain Dijkstra.")
    var queries = 2_000

    @Option(help: "Random pairs for the contraction hierarchy (more, for a stable figure).")
    var fastQueries = 200_000

    @Option(help: "Drivers (random nodes) for the pickup rounds.")
    var drivers = 5_000

    @Option(help: "Nearest drivers (by straight line) timed to each pickup.")
    var candidates = 8

    @Option(help: "Pickups in the pickup rounds.")
    var pickups = 20_000

    @Option(help: "Sources and targets of each whole table (N × N).")
    var tableSize = 100

    @Option(help: "Whole tables to time.")
    var tables = 20

    @Option(help: "Seed for the pairs.")
    var seed: UInt64 = 1

    func run() throws {
        let city = try ImportedCity(file: file)
        let graph = city.network.graph
        var generator = SeededGenerator(seed: seed)
        let randomNode = { (generator: inout SeededGenerator) in Int.random(in: 0..<graph.nodeCount, using: &generator) }
        let pairs = (0..<max(queries, fastQueries)).map { _ in (randomNode(&generator), randomNode(&generator)) }
        print(String(format: "\(file): \(graph.nodeCount) nodes, \(graph.edgeCount) edges; import %.2f s", city.seconds))

        let dijkstra = PathFinder(graph: graph)
        var expected: [Double?] = []
        let plainSeconds = seconds { expected = pairs.prefix(queries).map { dijkstra.travelTime(from: $0.0, to: $0.1) } }
        let plainRate = Double(queries) / plainSeconds
        let mean = expected.compactMap { $0 }.reduce(0, +) / Double(max(1, expected.count))
        print(
            String(
                format: "plain Dijkstra: %d queries in %.2f s = %.0f ETA queries/s (mean ETA %.0f s)",
                queries, plainSeconds, plainRate, mean))

        var built: ContractionHierarchy?
        let contractSeconds = seconds { built = ContractionHierarchy(graph: graph) }
        let hierarchy = built!
        let query = HierarchyQuery(hierarchy: hierarchy)
        print(
            String(
                format: "contraction hierarchy: built in %.2f s, %d shortcuts (%.2f per segment)",
                contractSeconds, hierarchy.shortcutCount, Double(hierarchy.shortcutCount) / Double(graph.edgeCount)))
        // Point to point: the two-way search (what route queries run) and the labels.
        var searched: [Double?] = []
        let searchSeconds = seconds {
            searched = pairs.prefix(fastQueries).map { query.searchedTravelTime(from: $0.0, to: $0.1) }
        }
        var labelled: [Double?] = []
        let labelSeconds = seconds { labelled = pairs.prefix(fastQueries).map { query.travelTime(from: $0.0, to: $0.1) } }
        var mismatches = zip(expected, searched).filter { $0 != $1 }.count + zip(expected, labelled).filter { $0 != $1 }.count
        mismatches += zip(searched, labelled).filter { $0 != $1 }.count
        let searchRate = Double(fastQueries) / searchSeconds
        let labelRate = Double(fastQueries) / labelSeconds
        print(
            String(
                format: "point to point, %d random pairs: two-way search %.0f queries/s (%.0f× plain Dijkstra); "
                    + "labels %.0f queries/s (%.0f× plain Dijkstra, %.1f× the search); %.1f label entries per node",
                fastQueries, searchRate, searchRate / plainRate, labelRate, labelRate / plainRate, labelRate / searchRate,
                Double(hierarchy.labelEntryCount) / Double(graph.nodeCount)))

        // A dispatch round's question: how soon can each of the nearest drivers reach a pickup?
        let driverNodes = (0..<drivers).map { _ in randomNode(&generator) }
        let rounds = (0..<pickups).map { _ in
            let pickup = randomNode(&generator)
            return nearest(candidates, of: driverNodes, to: pickup, in: graph).map { ($0, pickup) }
        }
        let roundPairs = Array(rounds.joined())
        let roundSearchSeconds = seconds { searched = roundPairs.map { query.searchedTravelTime(from: $0.0, to: $0.1) } }
        let roundLabelSeconds = seconds { labelled = roundPairs.map { query.travelTime(from: $0.0, to: $0.1) } }
        mismatches += zip(searched, labelled).filter { $0 != $1 }.count
        let count = Double(roundPairs.count)
        print(
            String(
                format: "pickups (%d nearest of %d drivers by straight line, %d pickups): two-way search %.0f queries/s; "
                    + "labels %.0f queries/s = %.1f×",
                candidates, drivers, pickups, count / roundSearchSeconds, count / roundLabelSeconds,
                roundSearchSeconds / roundLabelSeconds))

        // Whole tables: every source to every target.
        let tableInputs = (0..<tables).map { _ in
            ((0..<tableSize).map { _ in randomNode(&generator) }, (0..<tableSize).map { _ in randomNode(&generator) })
        }
        let cells = Double(tables * tableSize * tableSize)
        var tableByLabels: [TravelTimeTable] = []
        let tableLabelSeconds = seconds {
            tableByLabels = tableInputs.map { sources, targets in
                TravelTimeTable(sources: sources, targets: targets) { i, j in query.travelTime(from: sources[i], to: targets[j]) }
            }
        }
        var tableBySearch: [TravelTimeTable] = []
        let tableSearchSeconds = seconds {
            tableBySearch = tableInputs.map { sources, targets in
                TravelTimeTable(sources: sources, targets: targets) { i, j in
                    query.searchedTravelTime(from: sources[i], to: targets[j])
                }
            }
        }
        var bucketed: [TravelTimeTable] = []
        let bucketSeconds = seconds { bucketed = tableInputs.map { query.travelTimes(from: $0.0, to: $0.1) } }
        mismatches +=
            zip(bucketed, tableByLabels).filter { $0 != $1 }.count + zip(bucketed, tableBySearch).filter { $0 != $1 }.count
        print(
            String(
                format: "whole tables (%d of %d × %d): a two-way search per pair %.0f queries/s; labels per pair %.0f queries/s; "
                    + "bucket many-to-many %.0f queries/s = %.1f× the searches, %.1f× the labels",
                tables, tableSize, tableSize, cells / tableSearchSeconds, cells / tableLabelSeconds, cells / bucketSeconds,
                tableSearchSeconds / bucketSeconds, tableLabelSeconds / bucketSeconds))
        print("answers differing from another router's: \(mismatches)")
        if mismatches > 0 { throw ExitCode.failure }
    }

    private func seconds(_ body: () -> Void) -> Double { ContinuousClock().measure(body) / .seconds(1) }

    /// The `count` nodes of `nodes` nearest to `target` in a straight line.
    private func nearest(_ count: Int, of nodes: [Int], to target: Int, in graph: RoadGraph) -> [Int] {
        let point = graph.positions[target]
        return nodes.map { ($0, graph.positions[$0].distance(to: point)) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .prefix(count).map(\.0)
    }
}
