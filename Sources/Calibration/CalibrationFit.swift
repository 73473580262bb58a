import City

/// Fits a ``TravelTimeModel`` to real trips.
///
/// The model is linear in its unknowns for a fixed route: a trip's time is the sum over road
/// classes of free-flow seconds times the class factor, plus junctions entered times the junction
/// delay, plus the fixed time of a leg. Each band is fitted by least squares on the *relative* error (each trip's row divided by
/// its observed time, so a 5-minute trip weighs as much as a 40-minute one), made robust to the
/// meter's outliers (a cab waiting with the meter on) by iteratively reweighting rows whose error
/// is over 25 % (Huber), with a ridge pulling each class's factor towards the band's pooled factor
/// so classes with few trips borrow strength. Each hour then gets the median ratio of observed to
/// fitted time, which removes the median bias a relative least-squares fit leaves. Routes depend
/// on the weights, so the fit alternates: route with the current model, fit, and again.
public struct CalibrationFit: Sendable {
    public struct Options: Sendable {
        /// The bands of the day to fit (each gets its own routes and factors).
        public var bands: [(days: DayKind, from: Int, to: Int)]
        /// Rounds of routing and fitting.
        public var rounds = 2
        /// How strongly a class factor is pulled to its band's pooled factor (in trips' worth).
        public var ridge = 20.0
        /// Fewer trips than this in an hour: the hour takes its band's scale.
        public var minimumTripsPerHour = 15
        /// District cells (their side in metres) with a factor each, or `nil` for none.
        public var cellMetres: Double? = 1_000
        /// How strongly a district factor is pulled to 1 (in trips' worth).
        public var zoneRidge = 30.0
        public var pickupDwellSeconds = 30.0
        public var dropoffDwellSeconds = 60.0

        /// Weekday: night, morning rush, midday, evening rush, evening; weekend: night, morning,
        /// afternoon, evening — where the TLC records' median speeds change most.
        public static let manhattanBands: [(days: DayKind, from: Int, to: Int)] = [
            (.weekday, 0, 6), (.weekday, 6, 10), (.weekday, 10, 16), (.weekday, 16, 20), (.weekday, 20, 24),
            (.weekend, 0, 8), (.weekend, 8, 12), (.weekend, 12, 20), (.weekend, 20, 24),
        ]

        public init(bands: [(days: DayKind, from: Int, to: Int)] = manhattanBands) {
            self.bands = bands
        }
    }

    /// How one band's fit went.
    public struct BandFit: Sendable, Equatable {
        public var trips: Int
        /// Median absolute relative error on the trips it was fitted on (after the hour scales).
        public var medianAbsoluteError: Double
    }

    public let model: TravelTimeModel
    public let bandFits: [BandFit]
    /// Trips no route could be found for (none in one strongly connected graph).
    public let unrouted: Int

    public init(trips: [RealTrip], graph: RoadGraph, options: Options = Options()) {
        let classes = RoadClass.allCases.count
        let junctions = graph.junctions()
        var model = TravelTimeModel(
            bands: options.bands.map {
                TravelTimeModel.Band(
                    days: $0.days, fromHour: $0.from, toHour: $0.to,
                    classFactors: [Double](repeating: 1, count: classes), junctionSeconds: 0)
            },
            zones: options.cellMetres.map { TravelTimeModel.Zones(covering: graph, cellMetres: $0) },
            pickupDwellSeconds: options.pickupDwellSeconds, dropoffDwellSeconds: options.dropoffDwellSeconds)
        let cells = model.zones?.edgeCells(on: graph)
        precondition(model.coverageProblems.isEmpty, "bands that tile both kinds of day")
        let bandOf = trips.map { model.band($0.days, hour: $0.hour)! }
        var breakdowns = [RouteBreakdown?](repeating: nil, count: trips.count)
        var unrouted = 0
        for _ in 0..<max(1, options.rounds) {
            // Route every trip by its band's current weights (the hour scales come after the rounds).
            let router = TripRouter(graph: graph, model: model)
            unrouted = 0
            for (index, trip) in trips.enumerated() {
                let planner = router.planner(trip.days, hour: trip.hour)
                guard let route = planner.route(from: trip.from, to: trip.to) else {
                    breakdowns[index] = nil
                    unrouted += 1
                    continue
                }
                breakdowns[index] = RouteBreakdown(
                    nodes: route.nodes, graph: graph, weighted: planner.graph, junctions: junctions, cells: cells)
            }
            // Bands, then districts relative to them, then bands again on the districts' times.
            Self.fitBands(&model, trips: trips, bandOf: bandOf, breakdowns: breakdowns, ridge: options.ridge)
            if model.zones != nil {
                Self.fitZones(&model, trips: trips, bandOf: bandOf, breakdowns: breakdowns, ridge: options.zoneRidge)
                Self.fitBands(&model, trips: trips, bandOf: bandOf, breakdowns: breakdowns, ridge: options.ridge)
            }
        }
        // Hourly scales: the median observed-to-fitted ratio of the hour (or of its band).
        var ratiosByHour: [DayKind: [[Double]]] = [
            .weekday: Array(repeating: [], count: 24), .weekend: Array(repeating: [], count: 24),
        ]
        var ratiosByBand = [[Double]](repeating: [], count: model.bands.count)
        for (index, trip) in trips.enumerated() {
            guard let breakdown = breakdowns[index] else { continue }
            let fitted = breakdown.seconds(under: model.bands[bandOf[index]], zones: model.zones)
            guard fitted > 0 else { continue }
            ratiosByHour[trip.days]![trip.hour].append(trip.observedSeconds / fitted)
            ratiosByBand[bandOf[index]].append(trip.observedSeconds / fitted)
        }
        for days in DayKind.allCases {
            model.hourScale[days] = (0..<24).map { hour in
                let own = ratiosByHour[days]![hour]
                if own.count >= options.minimumTripsPerHour { return Self.median(own) }
                let band = ratiosByBand[model.band(days, hour: hour)!]
                return band.isEmpty ? 1 : Self.median(band)
            }
        }
        // How well each band fits the trips it was fitted on.
        var errors = [[Double]](repeating: [], count: model.bands.count)
        for (index, trip) in trips.enumerated() {
            guard let breakdown = breakdowns[index] else { continue }
            let band = bandOf[index]
            let fitted = breakdown.seconds(under: model.bands[band], zones: model.zones) * model.scale(trip.days, hour: trip.hour)
            errors[band].append(abs(fitted - trip.observedSeconds) / trip.observedSeconds)
        }
        self.model = model
        bandFits = errors.map { BandFit(trips: $0.count, medianAbsoluteError: $0.isEmpty ? 0 : Self.median($0)) }
        self.unrouted = unrouted
    }

    /// Bounds that keep a fitted band physical: no road faster than its posted speed allows by
    /// half, none twelve times slower, junction delays of a minute and leg times of five at most.
    static let factorRange = 0.5...12.0
    static let junctionRange = 0.0...60.0
    static let legRange = 0.0...300.0
    static let zoneRange = 0.5...3.0

    private static func fitBands(
        _ model: inout TravelTimeModel, trips: [RealTrip], bandOf: [Int], breakdowns: [RouteBreakdown?], ridge: Double
    ) {
        for band in model.bands.indices {
            let members = trips.indices.filter { bandOf[$0] == band && breakdowns[$0] != nil }
            guard !members.isEmpty else { continue }
            model.bands[band] = fit(
                band: model.bands[band], rows: members.map { (breakdowns[$0]!, trips[$0].observedSeconds) },
                zones: model.zones, ridge: ridge)
        }
    }

    /// District factors, the bands held fixed: least squares on the relative error, pulled to 1.
    static func fitZones(
        _ model: inout TravelTimeModel, trips: [RealTrip], bandOf: [Int], breakdowns: [RouteBreakdown?], ridge: Double
    ) {
        guard var zones = model.zones else { return }
        var regression = RidgeRegression(unknowns: zones.factors.count)
        for (index, trip) in trips.enumerated() {
            guard let breakdown = breakdowns[index] else { continue }
            let band = model.bands[bandOf[index]]
            let observed = trip.observedSeconds
            var features = [Double](repeating: 0, count: zones.factors.count)
            for (cell, seconds) in breakdown.cellSeconds(under: band) { features[cell] = seconds / observed }
            let fixed = Double(breakdown.junctions) * band.junctionSeconds + band.legSeconds
            regression.add(features, 1 - fixed / observed)
        }
        let count = zones.factors.count
        guard
            let solved = regression.solve(
                prior: [Double](repeating: 1, count: count), ridge: [Double](repeating: ridge, count: count))
        else { return }
        zones.factors = solved.map { min(zoneRange.upperBound, max(zoneRange.lowerBound, $0)) }
        model.zones = zones
    }

    /// One band fitted on `rows` (a route's breakdown and the observed seconds).
    static func fit(
        band: TravelTimeModel.Band, rows: [(RouteBreakdown, Double)], zones: TravelTimeModel.Zones?, ridge: Double
    ) -> TravelTimeModel.Band {
        let classes = RoadClass.allCases.count
        func features(_ breakdown: RouteBreakdown, _ observed: Double) -> [Double] {
            breakdown.classSeconds(zones: zones).map { $0 / observed } + [Double(breakdown.junctions) / observed, 1 / observed]
        }
        // The pooled fit: one factor for every class, and the junction delay.
        var weights = [Double](repeating: 1, count: rows.count)
        var pooled = [band.classFactors.reduce(0, +) / Double(classes), band.junctionSeconds, band.legSeconds]
        var full = band.classFactors + [band.junctionSeconds, band.legSeconds]
        for _ in 0..<4 {
            var pooledRegression = RidgeRegression(unknowns: 3)
            for (index, (breakdown, observed)) in rows.enumerated() {
                pooledRegression.add(
                    [
                        breakdown.classSeconds(zones: zones).reduce(0, +) / observed, Double(breakdown.junctions) / observed,
                        1 / observed,
                    ], 1,
                    weight: weights[index])
            }
            pooled = pooledRegression.solve(prior: [1, 0, 0], ridge: [1e-6, 1e-6, 1e-6]) ?? pooled
            var regression = RidgeRegression(unknowns: classes + 2)
            for (index, (breakdown, observed)) in rows.enumerated() {
                regression.add(features(breakdown, observed), 1, weight: weights[index])
            }
            let prior = [Double](repeating: pooled[0], count: classes) + [pooled[1], pooled[2]]
            full =
                regression.solve(prior: prior, ridge: [Double](repeating: ridge, count: classes) + [ridge * 1e-4, ridge * 1e-6])
                ?? full
            full = full.enumerated().map { index, value in
                let range = index < classes ? factorRange : index == classes ? junctionRange : legRange
                return min(range.upperBound, max(range.lowerBound, value))
            }
            // Huber weights: rows with a relative error over 25 % count less.
            weights = rows.map { breakdown, observed in
                let fitted = zip(features(breakdown, observed), full).reduce(0) { $0 + $1.0 * $1.1 }
                let error = abs(fitted - 1)
                return error <= 0.25 ? 1 : 0.25 / error
            }
        }
        var fitted = band
        fitted.classFactors = Array(full.prefix(classes))
        fitted.junctionSeconds = full[classes]
        fitted.legSeconds = full[classes + 1]
        return fitted
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
