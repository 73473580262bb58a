import City
import Demand

/// A real trip placed on a road graph: the road nodes nearest its pickup and drop-off, and what
/// the meter recorded.
public struct RealTrip: Sendable, Equatable {
    /// The line of the record file.
    public var line: Int
    public var from: Int
    public var to: Int
    public var observedSeconds: Double
    public var meteredMetres: Double
    /// The straight-line distance between pickup and drop-off.
    public var straightMetres: Double
    /// Days since 1970-01-01 of the pickup (local time), its day of the month, its kind, and
    /// its hour.
    public var day: Int
    public var dayOfMonth: Int
    public var days: DayKind
    public var hour: Int

    public init(
        line: Int, from: Int, to: Int, observedSeconds: Double, meteredMetres: Double, straightMetres: Double,
        pickupTime: Double
    ) {
        self.line = line
        self.from = from
        self.to = to
        self.observedSeconds = observedSeconds
        self.meteredMetres = meteredMetres
        self.straightMetres = straightMetres
        day = Int((pickupTime / 86_400).rounded(.down))
        dayOfMonth = CivilTime.dayOfMonth(daysFromEpoch: day)
        days = PublicHolidays.dayKind(daysFromEpoch: day)
        hour = Int(pickupTime - Double(day) * 86_400) / 3_600
    }
}

/// Puts real trip records on a road graph, keeping those that can be compared with a simulated
/// trip and counting the others by reason.
public struct TripPlacement: Sendable {
    /// How far a pickup or drop-off may be from the nearest road node.
    public static let snapLimit = 150.0

    public private(set) var trips: [RealTrip] = []
    /// Trips left out, by reason (in the order the reasons were first met).
    public private(set) var leftOut: [(reason: String, count: Int)] = []

    public init(records: [TripRecord], graph: RoadGraph) {
        let snap = SnapIndex(graph: graph)
        for record in records {
            guard let dropoff = record.dropoff, let seconds = record.meteredSeconds, let metres = record.meteredMetres else {
                leave("no drop-off place, time or metered distance")
                continue
            }
            guard seconds >= 60, seconds <= 3 * 3_600 else {
                leave("meter ran under a minute or over three hours")
                continue
            }
            guard metres >= 200 else {
                leave("metered distance under 200 m")
                continue
            }
            let straight = record.pickup.distance(to: dropoff)
            let kmh = metres / seconds * 3.6
            guard kmh >= 2, kmh <= 100, metres >= straight * 0.9 else {
                leave(
                    "metered distance and time impossible together (under 2 or over 100 km/h, or shorter than the straight line)")
                continue
            }
            guard let from = snap.nearestNode(to: record.pickup, within: Self.snapLimit),
                let to = snap.nearestNode(to: dropoff, within: Self.snapLimit)
            else {
                leave("pickup or drop-off over \(Int(Self.snapLimit)) m from the roads")
                continue
            }
            guard from.node != to.node else {
                leave("pickup and drop-off at the same road node")
                continue
            }
            trips.append(
                RealTrip(
                    line: record.line, from: from.node, to: to.node, observedSeconds: seconds, meteredMetres: metres,
                    straightMetres: straight, pickupTime: record.pickupTime))
        }
    }

    /// All trips left out.
    public var leftOutCount: Int { leftOut.reduce(0) { $0 + $1.count } }

    private mutating func leave(_ reason: String) {
        if let index = leftOut.firstIndex(where: { $0.reason == reason }) {
            leftOut[index].count += 1
        } else {
            leftOut.append((reason, 1))
        }
    }
}
