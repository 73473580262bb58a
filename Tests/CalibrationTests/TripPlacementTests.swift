import City
import Demand
import Testing

@testable import Calibration

@Suite("Calibration: real trips placed on the roads, the rest counted by reason")
struct TripPlacementTests {
    @Test("Each kind of unusable record is left out with its reason; a good one is placed with its day and hour")
    func reasons() throws {
        let city = GridCity(width: 1_000, height: 1_000, blockLength: 250, speedKmh: 36)
        let graph = city.build()
        let corner = graph.positions[city.node(x: 0, y: 0)]
        let far = graph.positions[city.node(x: 4, y: 4)]
        let saturday = Double(CivilTime.daysFromEpoch(year: 2016, month: 1, day: 2)) * 86_400 + 20 * 3_600 + 5
        func record(_ dropoff: GeoPoint?, seconds: Double?, metres: Double?, pickup: GeoPoint? = nil) -> TripRecord {
            TripRecord(
                pickupTime: saturday, pickup: pickup ?? corner, dropoff: dropoff, line: 7,
                dropoffTime: seconds.map { saturday + $0 },
                meteredMetres: metres)
        }
        let placement = TripPlacement(
            records: [
                record(far, seconds: 600, metres: 2_000),
                record(nil, seconds: 600, metres: 2_000),
                record(far, seconds: 30, metres: 2_000),
                record(far, seconds: 600, metres: 100),
                record(far, seconds: 60, metres: 2_000),
                record(far, seconds: 600, metres: 4_000, pickup: GeoPoint(lat: corner.lat - 0.01, lon: corner.lon)),
                record(GeoPoint(lat: corner.lat + 0.0001, lon: corner.lon), seconds: 300, metres: 300),
            ], graph: graph)
        let trip = try #require(placement.trips.first)
        #expect(placement.trips.count == 1)
        #expect(trip.from == city.node(x: 0, y: 0) && trip.to == city.node(x: 4, y: 4))
        #expect(trip.days == .weekend && trip.hour == 20 && trip.dayOfMonth == 2 && trip.observedSeconds == 600)
        #expect(
            placement.leftOut.map(\.reason) == [
                "no drop-off place, time or metered distance",
                "meter ran under a minute or over three hours",
                "metered distance under 200 m",
                "metered distance and time impossible together (under 2 or over 100 km/h, or shorter than the straight line)",
                "pickup or drop-off over 150 m from the roads",
                "pickup and drop-off at the same road node",
            ])
        #expect(placement.leftOutCount == 6)
    }

    @Test("Calendar dates from days since 1970, both ways")
    func dates() {
        #expect(CivilTime.dateText(daysFromEpoch: 16_803) == "2016-01-03")
        #expect(CivilTime.dateText(daysFromEpoch: 0) == "1970-01-01")
        #expect(CivilTime.dateText(daysFromEpoch: 11_016) == "2000-02-29")
        for days in [0, 59, 365, 11_016, 16_803, 20_000] {
            let (year, month, day) = CivilTime.date(daysFromEpoch: days)
            #expect(CivilTime.daysFromEpoch(year: year, month: month, day: day) == days)
        }
    }
}
