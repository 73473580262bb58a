import City
import Demand
import TestSupport
import Testing

@testable import Calibration

/// Trips on a small city whose "real" times come from a known model: the fit must find it.
@Suite("Calibration: the fit recovers a known model, and fidelity measures it")
struct CalibrationFitTests {
    /// A 9 × 9 grid, east–west streets primary and north–south ones residential.
    static let graph: RoadGraph = {
        let city = GridCity(width: 2_000, height: 2_000, blockLength: 250, speedKmh: 36)
        let plain = city.build()
        var builder = RoadGraphBuilder()
        for position in plain.positions { builder.addNode(position) }
        for source in 0..<plain.nodeCount {
            for edge in plain.edges(from: source) {
                let target = Int(plain.edgeTarget[edge])
                builder.addEdge(
                    from: source, to: target, length: Double(plain.edgeLength[edge]), time: Double(plain.edgeTime[edge]),
                    roadClass: abs(target - source) == 1 ? .primary : .residential)
            }
        }
        return builder.build()
    }()

    /// The truth: weekday daytime slower than the rest, an 8 s junction delay, 20 s per leg.
    static let truth: TravelTimeModel = {
        func factors(_ primary: Double, _ residential: Double) -> [Double] {
            var values = [Double](repeating: 1, count: RoadClass.allCases.count)
            values[Int(RoadClass.primary.rawValue)] = primary
            values[Int(RoadClass.residential.rawValue)] = residential
            return values
        }
        let bands = [
            TravelTimeModel.Band(
                days: .weekday, fromHour: 0, toHour: 7, classFactors: factors(1.5, 1.8), junctionSeconds: 8, legSeconds: 20),
            TravelTimeModel.Band(
                days: .weekday, fromHour: 7, toHour: 24, classFactors: factors(2.5, 3), junctionSeconds: 8, legSeconds: 20),
            TravelTimeModel.Band(
                days: .weekend, fromHour: 0, toHour: 24, classFactors: factors(1.5, 1.8), junctionSeconds: 8, legSeconds: 20),
        ]
        return TravelTimeModel(bands: bands, pickupDwellSeconds: 30, dropoffDwellSeconds: 60)
    }()

    static let bands: [(days: DayKind, from: Int, to: Int)] = [(.weekday, 0, 7), (.weekday, 7, 24), (.weekend, 0, 24)]

    /// Trips between random corners at random hours of January 2016, timed by `truth`, with
    /// `noise` relative error (deterministic: a seeded generator).
    static func trips(count: Int, noise: Double, seed: UInt64) -> [RealTrip] {
        var random = SplitMix(seed: seed)
        let router = TripRouter(graph: graph, model: truth)
        let january = Double(CivilTime.daysFromEpoch(year: 2016, month: 1, day: 1)) * 86_400
        var trips: [RealTrip] = []
        while trips.count < count {
            let from = Int(random.next() % UInt64(graph.nodeCount))
            let to = Int(random.next() % UInt64(graph.nodeCount))
            guard from != to else { continue }
            let pickup = january + Double(random.next() % (31 * 86_400))
            var trip = RealTrip(
                line: trips.count + 2, from: from, to: to, observedSeconds: 1, meteredMetres: 1,
                straightMetres: graph.positions[from].distance(to: graph.positions[to]), pickupTime: pickup)
            let route = router.route(trip)!
            let wobble = 1 + noise * (Double(random.next() % 2_001) / 1_000 - 1)
            trip.observedSeconds = route.time * wobble
            trip.meteredMetres = route.length
            trips.append(trip)
        }
        return trips
    }

    @Test("Noise-free trips: every band's factors, the junction delay and the leg time come back")
    func recoversTheTruth() throws {
        var options = CalibrationFit.Options(bands: Self.bands)
        options.cellMetres = nil
        options.ridge = 0.01
        let fit = CalibrationFit(trips: Self.trips(count: 900, noise: 0, seed: 3), graph: Self.graph, options: options)
        #expect(fit.unrouted == 0)
        for (fitted, true_) in zip(fit.model.bands, Self.truth.bands) {
            for roadClass in [RoadClass.primary, .residential] {
                #expect(
                    abs(fitted.factor(roadClass) - true_.factor(roadClass)) < 0.05,
                    "\(fitted.days) \(fitted.fromHour) \(roadClass)")
            }
            #expect(abs(fitted.junctionSeconds - true_.junctionSeconds) < 1)
            #expect(abs(fitted.legSeconds - true_.legSeconds) < 3)
        }
        for days in DayKind.allCases {
            #expect(fit.model.hourScale[days]!.allSatisfy { abs($0 - 1) < 0.02 }, "no hour needs rescaling")
        }
        let report = FidelityReport(
            trips: Self.trips(count: 200, noise: 0, seed: 4), router: TripRouter(graph: Self.graph, model: fit.model))
        #expect(report.overall.tripTimeMedianAbsolutePercentError < 1)
        #expect(report.overall.distanceMeanAbsolutePercentError < 0.001)
        #expect(report.meetsGoal)
    }

    @Test("Noisy trips with outliers: the fit stays unbiased at the median on trips it never saw")
    func robustToNoise() {
        var trips = Self.trips(count: 800, noise: 0.2, seed: 5)
        // One trip in twenty has the meter left running: three times as long.
        for index in stride(from: 0, to: trips.count, by: 20) { trips[index].observedSeconds *= 3 }
        var options = CalibrationFit.Options(bands: Self.bands)
        options.cellMetres = 1_000
        let fit = CalibrationFit(trips: trips, graph: Self.graph, options: options)
        let unseen = Self.trips(count: 300, noise: 0.2, seed: 6)
        let report = FidelityReport(trips: unseen, router: TripRouter(graph: Self.graph, model: fit.model))
        #expect(abs(report.overall.tripTimeMedianBiasPercent) < 5)
        #expect(report.overall.tripTimeMedianAbsolutePercentError < 13, "the noise alone is 10 % at the median")
        let posted = FidelityReport(trips: unseen, router: TripRouter(graph: Self.graph, model: nil))
        #expect(posted.overall.tripTimeMedianBiasPercent < -40, "posted speeds are far too fast")
    }

    @Test("Figures by part of the day, the bias's sign, the baseline and the distance error, worked by hand")
    func figuresByHand() throws {
        let graph = Self.graph
        let router = TripRouter(graph: graph, model: nil)
        let night = RealTrip(
            line: 2, from: 0, to: 4, observedSeconds: 200, meteredMetres: 1_100, straightMetres: 1_000,
            pickupTime: Double(CivilTime.daysFromEpoch(year: 2016, month: 1, day: 4)) * 86_400 + 3 * 3_600)
        var day = night
        day.line = 3
        day.hour = 12
        day.observedSeconds = 50
        // A trip of the same hour to learn the pace from: 100 s for 1,000 m metered.
        var training = night
        training.observedSeconds = 100
        training.meteredMetres = 1_000
        let report = FidelityReport(trips: [night, day], router: router, paceFrom: [training])
        // 1,000 m at 36 km/h: 100 s, 1,000 m simulated.
        let figures = Dictionary(uniqueKeysWithValues: report.figures.map { ($0.bucket, $0) })
        let n = try #require(figures["night 0–6"])
        #expect(
            n.trips == 1 && abs(n.tripTimeMedianAbsolutePercentError - 50) < 1e-9 && abs(n.tripTimeMedianBiasPercent + 50) < 1e-9)
        #expect(abs(n.distanceMeanAbsolutePercentError - 100.0 / 11) < 1e-6)
        // The baseline: 1,300 m at 20 km/h is 234 s against 200 s real.
        #expect(abs(n.baselineTripTimeMedianAbsolutePercentError - 17) < 1e-6)
        #expect(abs(n.baselineDistanceMeanAbsolutePercentError - 200.0 / 11) < 1e-6)
        // The yardstick: 1,100 m metered at 0.1 s/m is 110 s against 200 s real; noon has no pace.
        #expect(n.meteredPaceTripTimeMedianAbsolutePercentError.map { abs($0 - 45) < 1e-9 } == true)
        #expect(figures["day 7–19"]?.meteredPaceTripTimeMedianAbsolutePercentError == nil)
        // Both trips are on 4 January: real over simulated is 2 and 0.5, the day's median 1.25, so
        // with the day's own error taken out the night trip takes 125 s against 200 s real, the
        // noon trip 125 s against 50 s.
        #expect(abs(n.dayCorrectedTripTimeMedianAbsolutePercentError - 37.5) < 1e-9)
        #expect(abs(report.overall.dayCorrectedTripTimeMedianAbsolutePercentError - 93.75) < 1e-9)
        #expect(report.lines.contains("  yardstick (metered distance at the hour's median pace): trip time 45.0 %"))
        let d = try #require(figures["day 7–19"])
        #expect(abs(d.tripTimeMedianBiasPercent - 100) < 1e-9)
        #expect(figures["evening 20–23"]?.trips == 0)
        #expect(report.overall.trips == 2 && !report.meetsGoal)
        #expect(report.lines.contains("  trip time median absolute % error: 50.0 %"))
        #expect(report.lines.contains("  distance MAPE: 9.1 %"))
        #expect(
            FidelityPlot.html(report, title: "t<1>").contains("<circle")
                && FidelityPlot.html(report, title: "t<1>").contains("t&lt;1&gt;"))
    }
}
