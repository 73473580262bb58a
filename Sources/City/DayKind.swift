/// Whether a day's traffic is a working day's or a weekend's (holidays count as weekends where
/// the caller says so).
public enum DayKind: String, Sendable, CaseIterable, Codable {
    case weekday
    case weekend

    /// The kind of the day `daysFromEpoch` days after 1970-01-01 (a Thursday).
    public init(daysFromEpoch: Int) {
        let weekday = ((daysFromEpoch % 7) + 7 + 3) % 7  // 0 = Monday
        self = weekday >= 5 ? .weekend : .weekday
    }
}
