import Foundation

/// Local date-times as written in trip records, turned into seconds since 1970-01-01 00:00 of the
/// same local clock (no time zone: the records' own local time, as TLC publishes it).
public enum CivilTime {
    /// Parses `2016-01-02 20:18:04` (TLC), `04-01-14 0:11` (Uber, month-day-year) and
    /// `4/13/2014 8:56:00` (Uber, month/day/year); `nil` for anything else or an impossible date.
    public static func parse(_ text: Substring) -> Double? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let date = parts[0], clock = parts[1]
        var year: Int, month: Int, day: Int
        if date.contains("/") {
            let fields = date.split(separator: "/", omittingEmptySubsequences: false)
            guard fields.count == 3, let m = Int(fields[0]), let d = Int(fields[1]), let y = Int(fields[2]) else { return nil }
            (year, month, day) = (y < 100 ? 2000 + y : y, m, d)
        } else {
            let fields = date.split(separator: "-", omittingEmptySubsequences: false)
            guard fields.count == 3, let a = Int(fields[0]), let b = Int(fields[1]), let c = Int(fields[2]) else { return nil }
            if fields[0].count == 4 {
                (year, month, day) = (a, b, c)
            } else {
                (year, month, day) = (c < 100 ? 2000 + c : c, a, b)
            }
        }
        let time = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 2 || time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]) else { return nil }
        let second = time.count == 3 ? Int(time[2]) : 0
        guard let second, (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return Double(daysFromEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar.
    public static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of the day `daysFromEpoch` days after 1970-01-01.
    public static func date(daysFromEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `2016-01-03` for the day `daysFromEpoch` days after 1970-01-01.
    public static func dateText(daysFromEpoch days: Int) -> String {
        let (year, month, day) = date(daysFromEpoch: days)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// The day of the month of the day `daysFromEpoch` days after 1970-01-01.
    public static func dayOfMonth(daysFromEpoch days: Int) -> Int { date(daysFromEpoch: days).day }
}
