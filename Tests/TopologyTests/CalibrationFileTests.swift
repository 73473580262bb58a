import City
import Foundation
import Testing

@testable import Topology

@Suite("Calibration files: written and read back, every mistake named with its key and line")
struct CalibrationFileTests {
    static let text = """
        format: ribcity-calibration/1
        fitted_on: "a test"
        held_out_dates: ["2016-01-03"]
        left_out_dates: ["2016-01-23"]
        dwell: { pickup_s: 30, dropoff_s: 60 }
        bands:
          - { days: weekday, hours: [0, 24], junction_s: 4, leg_s: 20, factors: { primary: 2, residential: 2.5 } }
          - { days: weekend, hours: [0, 24], factors: { motorway: 1.5 } }
        zones: { origin: [40.7, -74.0], cell_m: 1000, columns: 2, rows: 1, factors: [1.2, 0.9] }
        hour_scale:
          weekday: [1, 1, 1, 1, 1, 1, 1, 1, 1.2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]

        """

    @Test("A file reads into its model (missing factors are 1), and writes back to text that reads the same")
    func roundTrip() throws {
        let file = try CalibrationFile.parse(Self.text, file: "c.yaml")
        let model = file.model
        #expect(file.heldOutDates == ["2016-01-03"] && file.fittedOn == "a test" && file.leftOutDates == ["2016-01-23"])
        #expect(model.pickupDwellSeconds == 30 && model.dropoffDwellSeconds == 60)
        #expect(model.bands.count == 2 && model.bands[0].factor(.primary) == 2 && model.bands[0].factor(.residential) == 2.5)
        #expect(model.bands[0].factor(.motorway) == 1 && model.bands[0].junctionSeconds == 4 && model.bands[0].legSeconds == 20)
        #expect(model.bands[1].factor(.motorway) == 1.5 && model.bands[1].junctionSeconds == 0)
        #expect(model.zones?.factors == [1.2, 0.9] && model.zones?.columns == 2)
        #expect(model.scale(.weekday, hour: 8) == 1.2 && model.scale(.weekend, hour: 8) == 1)
        let again = try CalibrationFile.parse(file.yaml, file: "c.yaml")
        #expect(again == file)
        #expect(again.yaml == file.yaml)
    }

    @Test(
        "Mistakes are named: no format, a gap in the day, an unknown road class, a short hour list, a bad date",
        arguments: [
            ("fitted_on: x\nbands: []\n", "c.yaml:1: format: is required (ribcity-calibration/1)"),
            (
                "format: ribcity-calibration/1\nbands:\n  - { days: weekday, hours: [0, 23] }\n  - { days: weekend, hours: [0, 24] }\n",
                "c.yaml:3: bands: must cover every hour of weekdays and weekends exactly once: no band covers weekday hour 23"
            ),
            (
                "format: ribcity-calibration/1\nbands:\n  - { days: weekday, hours: [0, 24], factors: { avenue: 2 } }\n",
                "c.yaml:3: bands[0].factors.avenue: unknown key (known here: motorway, primary, residential, secondary, service, tertiary, trunk)"
            ),
            (
                "format: ribcity-calibration/1\nbands:\n  - { days: weekday, hours: [0, 24] }\n  - { days: weekend, hours: [0, 24] }\nhour_scale: { weekday: [1, 2] }\n",
                "c.yaml:5: hour_scale.weekday: must be a list of 24 positive numbers, one per hour"
            ),
            (
                "format: ribcity-calibration/1\nheld_out_dates: [yesterday]\nbands: []\n",
                "c.yaml:2: held_out_dates: 'yesterday' is not a date such as 2016-01-03"
            ),
        ])
    func mistakesNamed(text: String, message: String) {
        do {
            _ = try CalibrationFile.parse(text, file: "c.yaml")
            Issue.record("read without an error: \(message)")
        } catch {
            #expect(error.description == message)
        }
    }
}
