import City
import Foundation
import Testing

@testable import Demand

/// `../shared/data` beside the repository, where the real record files live (present in CI).
let sharedData = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/data")

func sharedFile(_ name: String) -> String? {
    let path = sharedData.appendingPathComponent(name).path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}

@Suite("Trip records: TLC yellow and green, Uber 2014 pickups")
struct RecordReaderTests {
    @Test("Date-times in the three layouts, and impossible ones refused")
    func civilTime() {
        #expect(CivilTime.parse("1970-01-01 00:00:00") == 0)
        #expect(CivilTime.parse("2016-01-02 20:18:04") == CivilTime.parse("2016-01-02 00:00:00")! + 20 * 3_600 + 18 * 60 + 4)
        #expect(CivilTime.parse("04-01-14 0:11") == CivilTime.parse("2014-04-01 00:11:00"))
        #expect(CivilTime.parse("4/13/2014 8:56:00") == CivilTime.parse("2014-04-13 08:56:00"))
        #expect(
            CivilTime.parse("2016-03-01 00:00:00")! - CivilTime.parse("2016-02-28 00:00:00")! == 2 * 86_400, "2016 is a leap year"
        )
        for bad in [
            "2016-02-30 10:00:00", "2016-13-01 10:00:00", "2016-01-01 24:00:00", "yesterday", "2016-01-01", "4/13/2014 8:xx:00",
        ] {
            #expect(CivilTime.parse(Substring(bad)) == nil, "\(bad)")
        }
    }

    @Test("Bad rows are reported with their line and reason, skipped, and counted")
    func badRows() throws {
        let text = """
            vendorid,tpep_pickup_datetime,tpep_dropoff_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,dropoff_latitude
            2,2016-01-02 20:18:04,2016-01-02 20:32:14,-73.96,40.75,-73.97,40.76
            2,2016-01-02 20:18:04,2016-01-02 20:32:14,-73.96,40.75
            2,2016-01-32 20:18:04,2016-01-02 20:32:14,-73.96,40.75,-73.97,40.76
            2,2016-01-02 21:00:00,2016-01-02 21:10:00,0,0,-73.97,40.76
            2,2016-01-02 21:00:00,2016-01-02 21:10:00,-73.96,forty,-73.97,40.76
            1,2016-01-03 07:00:00,2016-01-03 07:20:00,-74.00,40.72,-73.98,40.75
            1,2016-01-03 08:00:00,2016-01-03 07:50:00,-74.00,40.72,-73.98,40.75
            """
        let (records, report) = try TripRecordReader.read(text: text, file: "sample.csv")
        #expect(report.format == .tlcYellow)
        #expect(report.rows == 7 && report.kept == 2 && report.skippedCount == 5)
        #expect(report.problems.map(\.line) == [3, 4, 5, 6, 8])
        #expect(
            report.problems[4].reason
                == "tpep_dropoff_datetime 2016-01-03 07:50:00 is before tpep_pickup_datetime 2016-01-03 08:00:00")
        #expect(report.problems[0].reason == "has 5 fields where the header has 7")
        #expect(report.problems[1].reason == "tpep_pickup_datetime is not a date-time")
        #expect(report.problems[2].reason.contains("0, 0"))
        #expect(report.problems[3].reason == "pickup_latitude is not a number")
        #expect(records.map(\.line) == [2, 7])
        #expect(records[1].dropoff == GeoPoint(lat: 40.75, lon: -73.98))
        #expect(report.description.contains("5 skipped"))
    }

    @Test("Files that cannot be read at all are errors naming the file")
    func fileErrors() {
        let unknown = #expect(throws: DemandError.self) { try TripRecordReader.read(text: "a,b\n1,2\n", file: "odd.csv") }
        #expect(
            unknown?.description
                == "odd.csv: line 1: the header is not a TLC yellow, TLC green or Uber 2014 layout: nearest is TLC yellow, which "
                + "also needs tpep_pickup_datetime, pickup_latitude, pickup_longitude, dropoff_latitude, dropoff_longitude; "
                + "the header has a, b")
        let renamed = #expect(throws: DemandError.self) {
            try TripRecordReader.read(
                text: "tpep_pickup_datetime,pickup_longitude,pick_lat,dropoff_longitude,dropoff_latitude\n", file: "renamed.csv")
        }
        #expect(
            renamed?.description
                == "renamed.csv: line 1: the header is not a TLC yellow, TLC green or Uber 2014 layout: nearest is TLC yellow, "
                + "which also needs pickup_latitude; the header has tpep_pickup_datetime, pickup_longitude, pick_lat, "
                + "dropoff_longitude, dropoff_latitude")
        let missing = #expect(throws: DemandError.self) { try TripRecordReader.read(path: "/nonexistent/trips.csv") }
        #expect(missing?.file == "trips.csv")
    }

    @Test(
        "The real TLC yellow and green samples: every row read, unknown positions skipped and counted",
        .enabled(if: sharedFile("nyc-yellow-2016-01-sample.csv") != nil), arguments: ["yellow", "green"])
    func realTLC(colour: String) throws {
        let (records, report) = try TripRecordReader.read(path: sharedFile("nyc-\(colour)-2016-01-sample.csv")!)
        #expect(report.format == (colour == "yellow" ? .tlcYellow : .tlcGreen))
        #expect(report.rows == 10_000)
        #expect(report.kept + report.skippedCount == report.rows)
        #expect(report.kept > 9_000)
        #expect(records.allSatisfy { $0.dropoff != nil })
        let january = CivilTime.parse("2016-01-01 00:00:00")!...CivilTime.parse("2016-02-01 23:59:59")!
        #expect(records.allSatisfy { january.contains($0.pickupTime) })
    }

    @Test(
        "The real Uber sample: both date formats read, pickups without dropoffs",
        .enabled(if: sharedFile("uber-pickups-nyc-2014-04-sample.csv") != nil))
    func realUber() throws {
        let (records, report) = try TripRecordReader.read(path: sharedFile("uber-pickups-nyc-2014-04-sample.csv")!)
        #expect(report.format == .uberPickups)
        // The data README says 99,996; the file holds 99,997 rows of four fields after its header.
        #expect(report.rows == 99_997, "\(report)")
        #expect(report.skippedCount == 0, "\(report)")
        #expect(records.allSatisfy { $0.dropoff == nil })
        let april13 = CivilTime.parse("2014-04-13 00:00:00")!
        #expect(
            records.contains { $0.pickupTime < april13 } && records.contains { $0.pickupTime >= april13 }, "both formats occur")
    }
}
