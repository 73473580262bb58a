import City
import Foundation

/// How close simulated trips come to real ones: each real trip's pickup and drop-off routed as a
/// simulation would route them at the trip's hour, compared with what the meter recorded; and the
/// same for a baseline that needs no roads (the straight line × 1.3 at 20 km/h). Given trips to
/// learn from, also a yardstick no router can beat on its own inputs: each trip's own *metered*
/// distance at the median pace (seconds per metre) of its hour and kind of day — what the
/// records' noise leaves even to a model that knew the route the cab really drove.
public struct FidelityReport: Sendable, Codable, Equatable {
    /// The parts of the day reported apart.
    public enum Bucket: String, Sendable, Codable, CaseIterable {
        case night = "night 0–6"
        case day = "day 7–19"
        case evening = "evening 20–23"
        case overall = "overall"

        public static func of(hour: Int) -> Bucket {
            switch hour {
            case 0...6: .night
            case 7...19: .day
            default: .evening
            }
        }
    }

    /// The figures for one bucket.
    public struct Figures: Sendable, Codable, Equatable {
        public var bucket: String
        public var trips: Int
        /// Median of |simulated − real| / real trip time, in per cent.
        public var tripTimeMedianAbsolutePercentError: Double
        /// Median of (simulated − real) / real trip time, in per cent (negative: too fast).
        public var tripTimeMedianBiasPercent: Double
        /// Mean of |simulated − metered| / metered distance, in per cent.
        public var distanceMeanAbsolutePercentError: Double
        /// The straight-line baseline's trip time median absolute and distance mean absolute
        /// errors, in per cent.
        public var baselineTripTimeMedianAbsolutePercentError: Double
        public var baselineDistanceMeanAbsolutePercentError: Double
        /// The metered-distance yardstick's trip time median absolute error, in per cent (over the
        /// trips whose hour had trips to learn its pace from; none: `nil`).
        public var meteredPaceTripTimeMedianAbsolutePercentError: Double?
        /// The trip time median absolute error, in per cent, of the same routes with each day's
        /// own median error taken out: what knowing each day's traffic beforehand (weather, an
        /// event; no forecast does) would leave.
        public var dayCorrectedTripTimeMedianAbsolutePercentError: Double
    }

    /// One compared trip, for plots.
    public struct Point: Sendable, Codable, Equatable {
        public var line: Int
        public var hour: Int
        public var realSeconds: Double
        public var simulatedSeconds: Double
        /// The metered distance and the simulated route's length.
        public var realMetres: Double
        public var simulatedMetres: Double

        /// (simulated − real) / real trip time: negative when too fast.
        var timeError: Double { (simulatedSeconds - realSeconds) / realSeconds }
        /// |simulated − metered| / metered distance.
        var distanceError: Double { abs(simulatedMetres - realMetres) / realMetres }
    }

    public var figures: [Figures]
    /// Trips compared, and trips left out with why.
    public var compared: Int
    public var leftOut: [String: Int]
    public var points: [Point]

    /// The baseline's speed and detour factor.
    public static let baselineKmh = 20.0
    public static let baselineDetour = 1.3

    /// Routes every trip with `router` and compares; `paceFrom` (other trips, such as those a
    /// calibration was fitted on) gives the metered-distance yardstick its paces.
    public init(trips: [RealTrip], router: TripRouter, leftOut: [String: Int] = [:], paceFrom training: [RealTrip] = []) {
        let paces = Self.medianPaces(training)
        // Each compared trip's point (real and simulated time and length) and what the baseline
        // and the yardstick make of it, as relative errors.
        var samples: [(point: Point, day: Int, baseTime: Double, baseDistance: Double, paced: Double?)] = []
        var leftOut = leftOut
        for trip in trips {
            guard let route = router.route(trip) else {
                leftOut["no road leads from pickup to drop-off", default: 0] += 1
                continue
            }
            let real = trip.observedSeconds
            let baseMetres = trip.straightMetres * Self.baselineDetour
            let baseSeconds = baseMetres / (Self.baselineKmh / 3.6)
            samples.append(
                (
                    Point(
                        line: trip.line, hour: trip.hour, realSeconds: real, simulatedSeconds: route.time,
                        realMetres: trip.meteredMetres, simulatedMetres: route.length),
                    trip.day, abs(baseSeconds - real) / real, abs(baseMetres - trip.meteredMetres) / trip.meteredMetres,
                    paces[Self.paceKey(trip)].map { abs($0 * trip.meteredMetres - real) / real }
                ))
        }
        let dayRatios = Dictionary(grouping: samples, by: \.day).mapValues {
            Self.median($0.map { $0.point.realSeconds / $0.point.simulatedSeconds })
        }
        figures = Bucket.allCases.map { bucket in
            let members = samples.filter { bucket == .overall || Bucket.of(hour: $0.point.hour) == bucket }
            let points = members.map(\.point)
            let paced = members.compactMap(\.paced)
            let dayCorrected = members.map { member in
                abs(member.point.simulatedSeconds * dayRatios[member.day]! - member.point.realSeconds) / member.point.realSeconds
            }
            return Figures(
                bucket: bucket.rawValue, trips: members.count,
                tripTimeMedianAbsolutePercentError: Self.median(points.map { abs($0.timeError) }) * 100,
                tripTimeMedianBiasPercent: Self.median(points.map(\.timeError)) * 100,
                distanceMeanAbsolutePercentError: Self.mean(points.map(\.distanceError)) * 100,
                baselineTripTimeMedianAbsolutePercentError: Self.median(members.map(\.baseTime)) * 100,
                baselineDistanceMeanAbsolutePercentError: Self.mean(members.map(\.baseDistance)) * 100,
                meteredPaceTripTimeMedianAbsolutePercentError: paced.isEmpty ? nil : Self.median(paced) * 100,
                dayCorrectedTripTimeMedianAbsolutePercentError: Self.median(dayCorrected) * 100)
        }
        compared = samples.count
        self.leftOut = leftOut
        points = samples.map(\.point)
    }

    /// The hour of a kind of day a trip's pace is learnt and used for.
    static func paceKey(_ trip: RealTrip) -> Int { (trip.days == .weekend ? 24 : 0) + trip.hour }

    /// The median seconds per metered metre of each hour of each kind of day.
    static func medianPaces(_ trips: [RealTrip]) -> [Int: Double] {
        Dictionary(grouping: trips, by: paceKey).mapValues { group in median(group.map { $0.observedSeconds / $0.meteredMetres })
        }
    }

    /// The overall figures.
    public var overall: Figures { figures.first { $0.bucket == Bucket.overall.rawValue }! }

    /// Whether the goal holds: trip time median absolute error ≤ 20 % in every bucket,
    /// distance MAPE ≤ 10 %, median bias within ±5 %.
    public var meetsGoal: Bool {
        figures.allSatisfy { $0.trips == 0 || $0.tripTimeMedianAbsolutePercentError <= 20 }
            && overall.distanceMeanAbsolutePercentError <= 10 && abs(overall.tripTimeMedianBiasPercent) <= 5
    }

    /// Every compared trip as CSV rows under a header: the record's line, the pickup hour, the
    /// real and simulated seconds and metres.
    public var pointsCSV: String {
        var rows = ["line,hour,real_seconds,simulated_seconds,real_metres,simulated_metres"]
        for point in points {
            rows.append(
                "\(point.line),\(point.hour),"
                    + String(
                        format: "%.1f,%.1f,%.0f,%.0f", point.realSeconds, point.simulatedSeconds, point.realMetres,
                        point.simulatedMetres))
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// The report as lines of text.
    public var lines: [String] {
        var lines = ["trips compared: \(compared); left out: \(leftOut.values.reduce(0, +))"]
        for (reason, count) in leftOut.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            lines.append("  \(count) \(reason)")
        }
        for figure in figures {
            lines.append("\(figure.bucket) (\(figure.trips) trips):")
            lines.append("  trip time median absolute % error: \(Self.percent(figure.tripTimeMedianAbsolutePercentError)) %")
            lines.append("  trip time median bias: \(Self.signed(figure.tripTimeMedianBiasPercent)) %")
            lines.append("  distance MAPE: \(Self.percent(figure.distanceMeanAbsolutePercentError)) %")
            lines.append(
                "  baseline (straight line × 1.3 at 20 km/h): trip time \(Self.percent(figure.baselineTripTimeMedianAbsolutePercentError)) %, "
                    + "distance \(Self.percent(figure.baselineDistanceMeanAbsolutePercentError)) %")
            if let paced = figure.meteredPaceTripTimeMedianAbsolutePercentError {
                lines.append("  yardstick (metered distance at the hour's median pace): trip time \(Self.percent(paced)) %")
            }
            lines.append(
                "  yardstick (the same routes with each day's own median error taken out, known only afterwards): trip time "
                    + "\(Self.percent(figure.dayCorrectedTripTimeMedianAbsolutePercentError)) %")
        }
        return lines
    }

    static func percent(_ value: Double) -> String { String(format: "%.1f", value) }
    static func signed(_ value: Double) -> String { String(format: "%+.1f", value) }

    static func median(_ values: [Double]) -> Double { CalibrationFit.median(values) }
    static func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
}
