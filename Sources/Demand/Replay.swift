import City
import Randomness

/// Turns real records into the rides of a run: each record's pickup time becomes a run time, and
/// pickups without a recorded dropoff get a destination from an origin–destination model.
public struct Replay: Sendable {
    /// How record times map onto the run.
    public enum Timing: Sendable, Equatable {
        /// Keep the records' order and spacing, starting the run at the first record.
        case asRecorded
        /// Lay every record onto one day by its time of day (a month of samples becomes one busy
        /// day), starting the run `startSecondOfDay` seconds after midnight.
        case foldedIntoOneDay(startSecondOfDay: Double)
    }

    public var timing: Timing
    /// Records outside this box (or whose destination is) are left out and counted.
    public var area: GeoBox

    public init(timing: Timing, area: GeoBox) {
        self.timing = timing
        self.area = area
    }

    /// The rides within `duration` seconds of the run's start, in time order, and how many
    /// records were left out, by reason.
    /// The reason given for rides whose time of day falls outside the simulated window.
    public static let afterTheEnd = "outside the simulated window"

    public func trips(
        from records: [TripRecord], duration: Double, destinations: ODModel?, seed: UInt64
    ) -> (trips: [DemandTrip], leftOut: [String: Int]) {
        var random = SeededGenerator(seed: seed)
        var trips: [DemandTrip] = []
        var leftOut: [String: Int] = [:]
        let first = records.map(\.pickupTime).min() ?? 0
        for record in records {
            let time: Double =
                switch timing {
                case .asRecorded: record.pickupTime - first
                case .foldedIntoOneDay(let start):
                    ((record.pickupTime - start).truncatingRemainder(dividingBy: 86_400) + 86_400).truncatingRemainder(
                        dividingBy: 86_400)
                }
            guard time < duration else { leftOut[Self.afterTheEnd, default: 0] += 1; continue }
            guard area.contains(record.pickup) else { leftOut["pickup outside the map", default: 0] += 1; continue }
            let destination: GeoPoint
            if let dropoff = record.dropoff {
                guard area.contains(dropoff) else { leftOut["dropoff outside the map", default: 0] += 1; continue }
                destination = dropoff
            } else if let drawn = destinations?.destination(from: record.pickup, using: &random, accept: area.contains) {
                destination = drawn
            } else {
                leftOut["no destination inside the map", default: 0] += 1
                continue
            }
            trips.append(DemandTrip(time: time, origin: record.pickup, destination: destination))
        }
        trips.sort { ($0.time, $0.origin.lat, $0.origin.lon) < ($1.time, $1.origin.lat, $1.origin.lon) }
        return (trips, leftOut)
    }
}
