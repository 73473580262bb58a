import City

/// What a route is made of, by the graph's free-flow times: seconds on each road class in each
/// district cell, the junctions it enters, and its length — the terms a ``TravelTimeModel``
/// weighs.
public struct RouteBreakdown: Sendable, Equatable {
    /// Free-flow seconds by `cell × classes + class` (cell 0 where the model has no zones).
    public var cellClassSeconds: [Int: Double]
    public var junctions: Int
    public var metres: Double

    static let classes = RoadClass.allCases.count

    /// The breakdown of the route through `nodes` (consecutive nodes joined by the edge the
    /// router took, the fastest under `weighted`'s times) on `graph`'s free-flow times; `cells`
    /// gives each edge's district cell.
    public init(nodes: [Int], graph: RoadGraph, weighted: RoadGraph, junctions isJunction: [Bool], cells: [Int]?) {
        cellClassSeconds = [:]
        junctions = 0
        metres = 0
        for (a, b) in zip(nodes, nodes.dropFirst()) {
            guard let edge = weighted.fastestEdge(from: a, to: b) else { continue }
            let key = (cells?[edge] ?? 0) * Self.classes + Int(graph.edgeClass[edge].rawValue)
            cellClassSeconds[key, default: 0] += Double(graph.edgeTime[edge])
            metres += Double(graph.edgeLength[edge])
            if isJunction[b] { junctions += 1 }
        }
    }

    /// Seconds per road class, each cell's seconds times its district factor.
    public func classSeconds(zones: TravelTimeModel.Zones?) -> [Double] {
        var seconds = [Double](repeating: 0, count: Self.classes)
        for (key, value) in cellClassSeconds {
            seconds[key % Self.classes] += value * (zones?.factors[key / Self.classes] ?? 1)
        }
        return seconds
    }

    /// Seconds per district cell, each class's seconds times the band's class factor.
    public func cellSeconds(under band: TravelTimeModel.Band) -> [Int: Double] {
        var seconds: [Int: Double] = [:]
        for (key, value) in cellClassSeconds {
            seconds[key / Self.classes, default: 0] += value * band.classFactors[key % Self.classes]
        }
        return seconds
    }

    /// The route's time under `band` and `zones` (before the hour's scale), for a route that
    /// goes somewhere.
    public func seconds(under band: TravelTimeModel.Band, zones: TravelTimeModel.Zones?) -> Double {
        zip(classSeconds(zones: zones), band.classFactors).reduce(0) { $0 + $1.0 * $1.1 }
            + Double(junctions) * band.junctionSeconds + band.legSeconds
    }
}
