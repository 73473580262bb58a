/// The router for each moment of a run: with a ``TravelTimeModel``, a contraction hierarchy per
/// band of the day (built when first needed, or ahead with ``prepare(from:through:)``) whose
/// answers are scaled by the hour; without one, a single router on the graph's own times.
///
/// Routes are chosen by the weights of the band at the moment they are asked for, and a trip
/// that runs into the next band keeps its route and its time (no time-dependent search).
///
/// Not `Sendable`: it lives with the one engine that asks it (hierarchies are built on demand).
public final class TravelTimeSchedule {
    /// The roads, with their free-flow times.
    public let graph: RoadGraph
    public let model: TravelTimeModel?
    /// Where simulated second 0 falls in the day, and what kind of day it is.
    public let startSecondOfDay: Double
    public let day: DayKind

    private let fixed: (any RoutePlanner)?
    /// Where hierarchies are read from and kept, if anywhere.
    private let store: HierarchyStore?
    private var junctions: [Bool]?
    private var planners: [Int: HierarchyQuery] = [:]
    /// The router of each hour of the day, once asked for.
    private var hourly = [ScaledPlanner?](repeating: nil, count: 24)

    /// One router for the whole run.
    public init(planner: any RoutePlanner) {
        graph = planner.graph
        model = nil
        startSecondOfDay = 0
        day = .weekday
        fixed = planner
        store = nil
    }

    /// One contraction hierarchy of `graph`'s own times (posted speeds) for the whole run, read
    /// from `store` if it has it.
    public convenience init(postedSpeedsOn graph: RoadGraph, store: HierarchyStore? = nil) {
        self.init(
            planner: HierarchyQuery(hierarchy: store?.hierarchy(of: graph) ?? ContractionHierarchy(graph: graph)))
    }

    /// The routers of a run that starts at `startSecondOfDay` on a `day` and takes requests for
    /// `duration` seconds: `model`'s, with every hierarchy the run reaches built now (rides
    /// requested up to the end are served for up to two hours after it), or the posted speeds'
    /// without a model.
    public static func forRun(
        graph: RoadGraph, model: TravelTimeModel?, startSecondOfDay: Double, day: DayKind, duration: Double,
        store: HierarchyStore? = nil
    ) -> TravelTimeSchedule {
        guard let model else { return TravelTimeSchedule(postedSpeedsOn: graph, store: store) }
        let schedule = TravelTimeSchedule(
            graph: graph, model: model, startSecondOfDay: startSecondOfDay, day: day, store: store)
        schedule.prepare(from: 0, through: duration + 2 * 3_600)
        return schedule
    }

    /// Routers for the bands of `model`, on `graph`'s roads; the model's bands must cover `day`.
    /// Their hierarchies are read from `store` when it has them (and kept there when built).
    public init(
        graph: RoadGraph, model: TravelTimeModel, startSecondOfDay: Double, day: DayKind, store: HierarchyStore? = nil
    ) {
        precondition(model.coverageProblems.isEmpty, "a travel-time model whose bands tile the day")
        self.graph = graph
        self.model = model
        self.startSecondOfDay = startSecondOfDay
        self.day = day
        fixed = nil
        self.store = store
    }

    /// The hour of the day at simulated second `time`.
    public func hour(at time: Double) -> Int {
        let second = (startSecondOfDay + max(0, time)).truncatingRemainder(dividingBy: 86_400)
        return min(23, Int(second / 3_600))
    }

    /// The router for simulated second `time`.
    public func planner(at time: Double) -> any RoutePlanner {
        if let fixed { return fixed }
        let hour = hour(at: time)
        if let known = hourly[hour] { return known }
        let model = model!
        let band = model.band(day, hour: hour)!
        let scale = model.scale(day, hour: hour)
        let planner = ScaledPlanner(hierarchy(band: band), scale: scale, legSeconds: model.bands[band].legSeconds * scale)
        hourly[hour] = planner
        return planner
    }

    /// Builds ahead every hierarchy simulated seconds `start ... end` need, so that none is built
    /// mid-run.
    public func prepare(from start: Double, through end: Double) {
        guard fixed == nil else { return }
        var time = start
        while time <= end {
            _ = planner(at: time)
            time += 1_800
        }
        _ = planner(at: end)
    }

    /// How many contraction hierarchies have been built.
    public var hierarchiesBuilt: Int { planners.count }

    private func hierarchy(band: Int) -> HierarchyQuery {
        if let known = planners[band] { return known }
        let junctions = self.junctions ?? graph.junctions()
        self.junctions = junctions
        let weighted = graph.withEdgeTimes(model!.edgeTimes(on: graph, band: band, junctions: junctions))
        let query = HierarchyQuery(hierarchy: store?.hierarchy(of: weighted) ?? ContractionHierarchy(graph: weighted))
        planners[band] = query
        return query
    }
}

/// A router whose every travel time is another's times a constant, plus a fixed time for any
/// leg that goes somewhere: the same routes, since neither changes which path is fastest.
public final class ScaledPlanner: RoutePlanner {
    public let base: any RoutePlanner
    public let scale: Double
    public let legSeconds: Double
    public var graph: RoadGraph { base.graph }

    public init(_ base: any RoutePlanner, scale: Double, legSeconds: Double = 0) {
        precondition(scale > 0 && scale.isFinite && legSeconds >= 0 && legSeconds.isFinite, "a positive scale")
        self.base = base
        self.scale = scale
        self.legSeconds = legSeconds
    }

    public func route(from start: Int, to end: Int) -> Route? {
        base.route(from: start, to: end).map {
            Route(time: $0.time * scale + (start == end ? 0 : legSeconds), length: $0.length, nodes: $0.nodes)
        }
    }

    public func travelTime(from start: Int, to end: Int) -> Double? {
        base.travelTime(from: start, to: end).map { scaled($0, start, end) }
    }

    public func travelTimes(from sources: [Int], to targets: [Int]) -> TravelTimeTable {
        base.travelTimes(from: sources, to: targets).map(scaled)
    }

    private func scaled(_ seconds: Double, _ start: Int, _ end: Int) -> Double {
        seconds * scale + (start == end ? 0 : legSeconds)
    }
}
