/// How demand varies over the day: a relative rate for each hour (the busiest hour is 1).
public struct HourlyProfile: Sendable, Equatable {
    public let weights: [Double]

    public init(weights: [Double]) {
        precondition(weights.count == 24 && weights.allSatisfy { $0 >= 0 } && weights.contains { $0 > 0 })
        let peak = weights.max()!
        self.weights = weights.map { $0 / peak }
    }

    /// The same rate all day.
    public static let flat = HourlyProfile(weights: Array(repeating: 1, count: 24))

    /// The profile of real records: their pickups counted by hour of the day.
    public static func fitted(on records: [TripRecord]) -> HourlyProfile {
        var counts = [Double](repeating: 0, count: 24)
        for record in records { counts[hour(of: record.pickupTime)] += 1 }
        return counts.contains { $0 > 0 } ? HourlyProfile(weights: counts) : .flat
    }

    /// The relative rate at `secondOfDay` (any number of seconds; wraps around midnight).
    public func rate(at secondOfDay: Double) -> Double { weights[Self.hour(of: secondOfDay)] }

    static func hour(of seconds: Double) -> Int {
        let day = seconds.truncatingRemainder(dividingBy: 86_400)
        return Int((day < 0 ? day + 86_400 : day) / 3_600) % 24
    }
}
