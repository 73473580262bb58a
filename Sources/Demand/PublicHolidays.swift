import City

/// The public holidays on which New York's traffic runs as on a weekend: the United States'
/// federal holidays, each on its own date (New Year's Day, Independence Day and Christmas Day on
/// the date, whatever the weekday; the others on the weekday their rule names).
public enum PublicHolidays {
    /// Whether the day `daysFromEpoch` days after 1970-01-01 is a holiday.
    public static func contains(daysFromEpoch days: Int) -> Bool {
        let (year, month, day) = CivilTime.date(daysFromEpoch: days)
        return dates(year: year).contains { $0.month == month && $0.day == day }
    }

    /// The kind of day for traffic: weekends and holidays are `.weekend`.
    public static func dayKind(daysFromEpoch days: Int) -> DayKind {
        contains(daysFromEpoch: days) ? .weekend : DayKind(daysFromEpoch: days)
    }

    /// The holidays of `year` as (month, day).
    public static func dates(year: Int) -> [(month: Int, day: Int)] {
        [
            (1, 1),
            (1, nthWeekday(0, 3, month: 1, year: year)),  // Martin Luther King Jr. Day
            (2, nthWeekday(0, 3, month: 2, year: year)),  // Washington's Birthday
            (5, lastWeekday(0, month: 5, year: year)),  // Memorial Day
            (7, 4),
            (9, nthWeekday(0, 1, month: 9, year: year)),  // Labor Day
            (10, nthWeekday(0, 2, month: 10, year: year)),  // Columbus Day
            (11, 11),  // Veterans Day
            (11, nthWeekday(3, 4, month: 11, year: year)),  // Thanksgiving
            (12, 25),
        ]
    }

    /// The day of the month of the `nth` `weekday` (0 = Monday) of a month.
    static func nthWeekday(_ weekday: Int, _ nth: Int, month: Int, year: Int) -> Int {
        let first = CivilTime.daysFromEpoch(year: year, month: month, day: 1)
        let offset = (weekday - DayKind.dayOfWeek(daysFromEpoch: first) + 7) % 7
        return 1 + offset + 7 * (nth - 1)
    }

    /// The day of the month of the last `weekday` (0 = Monday) of a month.
    static func lastWeekday(_ weekday: Int, month: Int, year: Int) -> Int {
        let length = CivilTime.daysIn(month: month, year: year)
        let last = CivilTime.daysFromEpoch(year: year, month: month, day: length)
        return length - (DayKind.dayOfWeek(daysFromEpoch: last) - weekday + 7) % 7
    }
}
