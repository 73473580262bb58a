import Foundation

/// Turns OpenStreetMap ways into a drivable ``RoadGraph``: keeps the highway classes cars use,
/// follows one-way rules, takes speeds from `maxspeed` or a per-class default, and keeps the
/// largest strongly connected component (where every node can reach every other).
public struct RoadNetworkImport: Sendable {
    /// What the import kept and dropped.
    public struct Report: Sendable, Equatable, CustomStringConvertible {
        public var highwayWays = 0
        public var drivableWays = 0
        public var missingNodeRefs = 0
        public var nodesBeforeComponent = 0
        public var nodesKept = 0
        public var edgesKept = 0

        public var description: String {
            "\(drivableWays) of \(highwayWays) highway ways drivable; kept \(nodesKept) of \(nodesBeforeComponent) "
                + "road nodes and \(edgesKept) road segments (largest strongly connected part); "
                + "\(missingNodeRefs) references to missing nodes skipped"
        }
    }

    /// Default speeds in km/h by `highway` class: the classes listed are the drivable ones.
    public static let defaultSpeeds: [String: Double] = [
        "motorway": 100, "motorway_link": 60, "trunk": 80, "trunk_link": 50,
        "primary": 50, "primary_link": 40, "secondary": 45, "secondary_link": 35,
        "tertiary": 40, "tertiary_link": 30, "unclassified": 30, "residential": 25,
        "living_street": 10, "service": 15, "road": 25,
    ]

    public let graph: RoadGraph
    public let report: Report

    /// The drivable graph of an OpenStreetMap file's `contents` (XML, gzip or PBF); `path` names
    /// it in errors. What a city store imports with (``RoadGraphStore/graph(of:importer:importing:)``).
    public static func graph(of contents: Data, path: String) throws -> RoadGraph {
        try RoadNetworkImport(OSMFile.parse(contents, path: path), file: path).graph
    }

    /// - Throws: ``CityImportError`` when nothing drivable remains; `file` names the source.
    public init(_ osm: OSMData, file: String) throws {
        var report = Report()
        var builder = RoadGraphBuilder()
        var index: [Int64: Int] = [:]
        func node(_ id: Int64) -> Int? {
            if let known = index[id] { return known }
            guard let position = osm.nodes[id] else { return nil }
            let added = builder.addNode(position)
            index[id] = added
            return added
        }
        for way in osm.ways {
            report.highwayWays += 1
            guard let rule = Self.rule(for: way.tags) else { continue }
            report.drivableWays += 1
            let speed = rule.speedKmh / 3.6
            for (a, b) in zip(way.nodes, way.nodes.dropFirst()) {
                guard let from = node(a), let to = node(b) else {
                    report.missingNodeRefs += 1
                    continue
                }
                guard from != to else { continue }
                if rule.forward { builder.addEdge(from: from, to: to, speed: speed, roadClass: rule.roadClass) }
                if rule.backward { builder.addEdge(from: to, to: from, speed: speed, roadClass: rule.roadClass) }
            }
        }
        let full = builder.build()
        report.nodesBeforeComponent = full.nodeCount
        let graph = Self.largestStronglyConnectedPart(of: full)
        report.nodesKept = graph.nodeCount
        report.edgesKept = graph.edgeCount
        guard graph.edgeCount > 0 else {
            throw CityImportError(
                file: file, reason: "no drivable roads (\(report.highwayWays) highway ways, none connected and drivable)")
        }
        self.graph = graph
        self.report = report
    }

    struct Rule {
        let forward: Bool
        let backward: Bool
        let speedKmh: Double
        let roadClass: RoadClass
    }

    /// How a way is driven, or `nil` if cars do not use it.
    static func rule(for tags: [String: String]) -> Rule? {
        guard let highway = tags["highway"], let defaultSpeed = defaultSpeeds[highway],
            let roadClass = RoadClass(highway: highway)
        else { return nil }
        if ["no", "private"].contains(tags["access"] ?? "") || tags["motor_vehicle"] == "no"
            || tags["motorcar"] == "no" || tags["area"] == "yes"
        {
            return nil
        }
        let speed = tags["maxspeed"].flatMap(parseSpeed) ?? defaultSpeed
        let roundabout = ["roundabout", "circular"].contains(tags["junction"] ?? "")
        switch tags["oneway"] ?? "" {
        case "yes", "true", "1": return Rule(forward: true, backward: false, speedKmh: speed, roadClass: roadClass)
        case "-1", "reverse": return Rule(forward: false, backward: true, speedKmh: speed, roadClass: roadClass)
        case "reversible", "alternating": return nil
        case "no", "false", "0": return Rule(forward: true, backward: true, speedKmh: speed, roadClass: roadClass)
        default:
            let implied = roundabout || highway == "motorway"
            return Rule(forward: true, backward: !implied, speedKmh: speed, roadClass: roadClass)
        }
    }

    /// `50`, `50 km/h`, `25 mph`, `25mph`; `nil` for `none`, `signals`, `walk` and the like.
    static func parseSpeed(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let mph = trimmed.hasSuffix("mph")
        let number = trimmed.replacingOccurrences(of: "mph", with: "").replacingOccurrences(of: "km/h", with: "")
            .replacingOccurrences(of: "kmh", with: "").trimmingCharacters(in: .whitespaces)
        guard let value = Double(number), value > 0, value < 200 else { return nil }
        return mph ? value * 1.609344 : value
    }

    /// The subgraph on the largest strongly connected component (Kosaraju, iterative).
    static func largestStronglyConnectedPart(of graph: RoadGraph) -> RoadGraph {
        let n = graph.nodeCount
        guard n > 0 else { return graph }
        // Pass 1: finishing order on the graph.
        var visited = [Bool](repeating: false, count: n)
        var order: [Int] = []
        order.reserveCapacity(n)
        for root in 0..<n where !visited[root] {
            var stack: [(node: Int, next: Int)] = [(root, Int(graph.edgeStart[root]))]
            visited[root] = true
            while let top = stack.last {
                if top.next < Int(graph.edgeStart[top.node + 1]) {
                    stack[stack.count - 1].next += 1
                    let target = Int(graph.edgeTarget[top.next])
                    if !visited[target] {
                        visited[target] = true
                        stack.append((target, Int(graph.edgeStart[target])))
                    }
                } else {
                    order.append(top.node)
                    stack.removeLast()
                }
            }
        }
        // Pass 2: components on the reversed graph, in reverse finishing order.
        var reverse = [[Int]](repeating: [], count: n)
        for source in 0..<n {
            for edge in graph.edges(from: source) { reverse[Int(graph.edgeTarget[edge])].append(source) }
        }
        var component = [Int](repeating: -1, count: n)
        var sizes: [Int] = []
        for root in order.reversed() where component[root] < 0 {
            let id = sizes.count
            var size = 0
            var stack = [root]
            component[root] = id
            while let node = stack.popLast() {
                size += 1
                for next in reverse[node] where component[next] < 0 {
                    component[next] = id
                    stack.append(next)
                }
            }
            sizes.append(size)
        }
        let largest = sizes.indices.max { sizes[$0] < sizes[$1] }!
        var builder = RoadGraphBuilder()
        var renumber = [Int](repeating: -1, count: n)
        for node in 0..<n where component[node] == largest {
            renumber[node] = builder.addNode(graph.positions[node])
        }
        for source in 0..<n where renumber[source] >= 0 {
            for edge in graph.edges(from: source) {
                let target = Int(graph.edgeTarget[edge])
                guard renumber[target] >= 0 else { continue }
                builder.addEdge(
                    from: renumber[source], to: renumber[target],
                    length: Double(graph.edgeLength[edge]), time: Double(graph.edgeTime[edge]),
                    roadClass: graph.edgeClass[edge])
            }
        }
        return builder.build()
    }
}
