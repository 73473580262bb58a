/// Whether a day's traffic is a working day's or a weekend's (holidays count as weekends where
/// the caller says so).
public enum DayKind: String, Sendable, CaseIterable, Codable {
    case weekday
    case weekend

    /// The kind of the day `daysFromEpoch` days after 1970-01-01 (a Thursday).
    public init(daysFromEpoch: Int) {
        self = Self.dayOfWeek(daysFromEpoch: daysFromEpoch) >= 5 ? .weekend : .weekday
    }

    /// 0 for a Monday … 6 for a Sunday: the weekday of the day `daysFromEpoch` days after
    /// 1970-01-01 (a Thursday).
    public static func dayOfWeek(daysFromEpoch days: Int) -> Int { ((days % 7) + 7 + 3) % 7 }
}
