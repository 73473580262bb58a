import City
import Testing

@testable import Demand

@Suite("Public holidays count as weekend days for traffic")
struct PublicHolidaysTests {
    func day(_ year: Int, _ month: Int, _ day: Int) -> Int { CivilTime.daysFromEpoch(year: year, month: month, day: day) }

    @Test("The rules give the dates on the calendar")
    func dates() {
        let y2016 = PublicHolidays.dates(year: 2016).map { "\($0.month)-\($0.day)" }
        #expect(y2016 == ["1-1", "1-18", "2-15", "5-30", "7-4", "9-5", "10-10", "11-11", "11-24", "12-25"])
        let y2025 = PublicHolidays.dates(year: 2025).map { "\($0.month)-\($0.day)" }
        #expect(y2025 == ["1-1", "1-20", "2-17", "5-26", "7-4", "9-1", "10-13", "11-11", "11-27", "12-25"])
    }

    @Test("A holiday on a weekday is a weekend day; the days around it are not")
    func kinds() {
        #expect(PublicHolidays.dayKind(daysFromEpoch: day(2016, 1, 18)) == .weekend, "Martin Luther King Jr. Day, a Monday")
        #expect(PublicHolidays.dayKind(daysFromEpoch: day(2016, 1, 19)) == .weekday)
        #expect(PublicHolidays.dayKind(daysFromEpoch: day(2016, 1, 1)) == .weekend, "New Year's Day, a Friday")
        #expect(PublicHolidays.dayKind(daysFromEpoch: day(2016, 1, 4)) == .weekday)
        #expect(PublicHolidays.dayKind(daysFromEpoch: day(2016, 1, 9)) == .weekend, "a Saturday")
        #expect(!PublicHolidays.contains(daysFromEpoch: day(2016, 1, 9)))
    }
}
