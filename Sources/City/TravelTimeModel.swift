/// How long roads really take: a calibrated model of travel time on top of a road graph's
/// free-flow times (length over posted speed).
///
/// The day is cut into bands (per ``DayKind``); within a band an edge takes its free-flow time
/// times its road class's factor, plus a fixed delay when it ends at a junction (a node where
/// three or more roads meet: signals, stop signs and turns the segment lengths do not show).
/// Roads may also be slower or faster by district (square cells with a factor each).
/// Every leg between two places also takes a fixed time (pulling out, finding the kerb).
/// Each hour of the day then scales the whole band uniformly — a uniform scale changes no
/// fastest route, so one contraction hierarchy per band answers every hour of it exactly.
/// Dwell times say how long a stop takes at a pickup and at a drop-off.
public struct TravelTimeModel: Sendable, Equatable {
    /// One stretch of the day with its own route-shaping weights.
    public struct Band: Sendable, Equatable {
        public var days: DayKind
        /// Hours `fromHour ..< toHour` (0–24).
        public var fromHour: Int
        public var toHour: Int
        /// Free-flow time multiplier per road class, indexed by ``RoadClass/rawValue``.
        public var classFactors: [Double]
        /// Seconds added for entering a junction.
        public var junctionSeconds: Double
        /// Seconds every leg takes beyond its roads: pulling out into traffic at its start and
        /// finding the kerb at its end. The same for every route, so it changes none.
        public var legSeconds: Double

        public init(
            days: DayKind, fromHour: Int, toHour: Int, classFactors: [Double], junctionSeconds: Double, legSeconds: Double = 0
        ) {
            precondition(classFactors.count == RoadClass.allCases.count, "one factor per road class")
            self.days = days
            self.fromHour = fromHour
            self.toHour = toHour
            self.classFactors = classFactors
            self.junctionSeconds = junctionSeconds
            self.legSeconds = legSeconds
        }

        public func factor(_ roadClass: RoadClass) -> Double { classFactors[Int(roadClass.rawValue)] }

        public func covers(_ days: DayKind, hour: Int) -> Bool {
            self.days == days && hour >= fromHour && hour < toHour
        }
    }

    /// Square cells over the city, each with a multiplier on the free-flow time of the roads
    /// that start in it (congested districts are slower at every hour).
    public struct Zones: Sendable, Equatable {
        /// The south-west corner of the first cell.
        public var origin: GeoPoint
        public var cellMetres: Double
        public var columns: Int
        public var rows: Int
        /// Row by row from the south-west, `columns × rows` of them.
        public var factors: [Double]

        public init(origin: GeoPoint, cellMetres: Double, columns: Int, rows: Int, factors: [Double]? = nil) {
            precondition(columns > 0 && rows > 0 && cellMetres > 0, "a grid of cells")
            precondition(factors == nil || factors!.count == columns * rows, "one factor per cell")
            self.origin = origin
            self.cellMetres = cellMetres
            self.columns = columns
            self.rows = rows
            self.factors = factors ?? [Double](repeating: 1, count: columns * rows)
        }

        /// Cells of `cellMetres` covering every node of `graph`.
        public init(covering graph: RoadGraph, cellMetres: Double) {
            let south = graph.positions.map(\.lat).min() ?? 0
            let west = graph.positions.map(\.lon).min() ?? 0
            let origin = GeoPoint(lat: south, lon: west)
            let projection = LocalProjection(origin: origin)
            let far = graph.positions.map { projection.project($0) }
            let columns = Int(((far.map(\.x).max() ?? 0) / cellMetres).rounded(.down)) + 1
            let rows = Int(((far.map(\.y).max() ?? 0) / cellMetres).rounded(.down)) + 1
            self.init(origin: origin, cellMetres: cellMetres, columns: columns, rows: rows)
        }

        /// The cell of `point` (points outside the grid take the nearest cell).
        public func cell(of point: GeoPoint) -> Int {
            let (x, y) = LocalProjection(origin: origin).project(point)
            let column = min(columns - 1, max(0, Int((x / cellMetres).rounded(.down))))
            let row = min(rows - 1, max(0, Int((y / cellMetres).rounded(.down))))
            return row * columns + column
        }

        /// The cell of each edge of `graph` (the cell of its source node).
        public func edgeCells(on graph: RoadGraph) -> [Int] {
            let nodeCells = graph.positions.map(cell(of:))
            var cells = [Int](repeating: 0, count: graph.edgeCount)
            for source in 0..<graph.nodeCount {
                for edge in graph.edges(from: source) { cells[edge] = nodeCells[source] }
            }
            return cells
        }
    }

    public var bands: [Band]
    /// District multipliers, if the model has them.
    public var zones: Zones?
    /// 24 multipliers per day kind, one per hour of the day, applied on top of its band.
    public var hourScale: [DayKind: [Double]]
    /// Seconds a car stands at a pickup (the rider gets in) and at a drop-off (gets out, pays).
    public var pickupDwellSeconds: Double
    public var dropoffDwellSeconds: Double

    public init(
        bands: [Band], zones: Zones? = nil, hourScale: [DayKind: [Double]] = [:], pickupDwellSeconds: Double,
        dropoffDwellSeconds: Double
    ) {
        self.bands = bands
        self.zones = zones
        self.hourScale = hourScale
        self.pickupDwellSeconds = pickupDwellSeconds
        self.dropoffDwellSeconds = dropoffDwellSeconds
    }

    /// The index of the band for `days` at `hour`, or `nil` if no band covers it.
    public func band(_ days: DayKind, hour: Int) -> Int? {
        bands.firstIndex { $0.covers(days, hour: hour) }
    }

    /// The uniform multiplier of `hour` on `days`.
    public func scale(_ days: DayKind, hour: Int) -> Double {
        guard let scales = hourScale[days], scales.indices.contains(hour) else { return 1 }
        return scales[hour]
    }

    /// The hours of either kind of day that no band covers, or that two bands cover, as
    /// readable problems (empty when the bands tile both kinds of day).
    public var coverageProblems: [String] {
        var problems: [String] = []
        for days in DayKind.allCases {
            for hour in 0..<24 {
                let count = bands.filter { $0.covers(days, hour: hour) }.count
                if count == 0 { problems.append("no band covers \(days) hour \(hour)") }
                if count > 1 { problems.append("\(count) bands cover \(days) hour \(hour)") }
            }
        }
        return problems
    }

    /// Every edge's travel time in band `band` (before the hour's scale).
    public func edgeTimes(on graph: RoadGraph, band: Int, junctions: [Bool]) -> [Float] {
        let band = bands[band]
        let cells = zones?.edgeCells(on: graph)
        return (0..<graph.edgeCount).map { edge in
            let target = Int(graph.edgeTarget[edge])
            let delay = junctions[target] ? band.junctionSeconds : 0
            let district = cells.map { zones!.factors[$0[edge]] } ?? 1
            return Float(Double(graph.edgeTime[edge]) * band.factor(graph.edgeClass[edge]) * district + delay)
        }
    }
}

extension RoadGraph {
    /// The same roads with other travel times (one per edge).
    public func withEdgeTimes(_ times: [Float]) -> RoadGraph {
        precondition(times.count == edgeCount, "one travel time per edge")
        return RoadGraph(
            positions: positions, edgeStart: edgeStart, edgeTarget: edgeTarget, edgeLength: edgeLength, edgeTime: times,
            edgeClass: edgeClass)
    }

    /// Which nodes are junctions: three or more distinct neighbouring nodes, counting roads in
    /// and out (a node that only shapes a curve, or a dead end, is not).
    public func junctions() -> [Bool] {
        var neighbours = [[Int32]](repeating: [], count: nodeCount)
        for source in 0..<nodeCount {
            for edge in edges(from: source) {
                let target = Int(edgeTarget[edge])
                neighbours[source].append(Int32(target))
                neighbours[target].append(Int32(source))
            }
        }
        return neighbours.map { Set($0).count >= 3 }
    }
}
