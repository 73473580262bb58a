import ArgumentParser
import Calibration
import City
import Demand
import Foundation
import Topology

/// `ribcity calibrate --city OSM --trips CSV`: fits a travel-time model on real trips and writes
/// it as a calibration file, then reports how close the trips held out of the fit come.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract:
            "Fit travel times (road-class factors, junction delays, hourly scales) on real taxi trips and write a calibration file.",
        discussion: """
            Trips on days of the month divisible by --hold-out-every are held out of the fit and compared at
            the end (the file lists their dates, and `ribcity fidelity` compares them by default). Days
            whose traffic was not ordinary (a blizzard's travel ban) are left out with --leave-out.

            Examples:
              ribcity calibrate --city Topologies/data/manhattan-roads.osm.pbf \\
                --trips Topologies/data/nyc-yellow-2016-01-sample.csv --leave-out 2016-01-23 \\
                --output Topologies/data/manhattan-calibration.yaml
            """
    )

    @Option(help: "The OpenStreetMap file of the city.")
    var city: String

    @Option(help: "NYC TLC trip records (yellow or green) with drop-off times and distances.")
    var trips: String

    @Option(help: "Where to write the calibration.")
    var output = "calibration.yaml"

    @Option(help: "Hold out the trips of every Nth day of the month (0: fit on every trip, compare nothing).")
    var holdOutEvery = 3

    @Option(help: "Seconds a car stands at a pickup (not in the meter's time, so not fitted).")
    var pickupDwell = 30.0

    @Option(help: "Seconds a car stands at a drop-off (SUMO's taxi default: 60).")
    var dropoffDwell = 60.0

    @Option(help: "Rounds of routing and fitting.")
    var rounds = 2

    @Option(
        name: .customLong("leave-out"),
        help: "A day (YYYY-MM-DD) whose traffic was not ordinary, left out of the fit and the comparison; repeatable.")
    var leaveOut: [String] = []

    @Option(help: "Side of the district cells in metres, each with its own factor (0: no districts).")
    var cellM = 1_000.0

    func validate() throws {
        guard holdOutEvery >= 0 else { throw ValidationError("--hold-out-every must be 0 or more") }
        guard (0...3_600).contains(pickupDwell), (0...3_600).contains(dropoffDwell) else {
            throw ValidationError("dwell times must be between 0 and 3600 seconds")
        }
        guard (1...10).contains(rounds) else { throw ValidationError("--rounds must be between 1 and 10") }
        // Exactly YYYY-MM-DD: the form dates are compared in.
        let isDate = { (text: String) in
            CivilTime.parse(Substring(text + " 00:00")).map { CivilTime.dateText(daysFromEpoch: Int($0 / 86_400)) == text }
                ?? false
        }
        if let bad = leaveOut.first(where: { !isDate($0) }) {
            throw ValidationError("--leave-out takes a date such as 2016-01-23, not '\(bad)'")
        }
        guard cellM == 0 || (100...20_000).contains(cellM) else {
            throw ValidationError("--cell-m must be 0 (no districts) or between 100 and 20000")
        }
    }

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let input = try RealTripsInput(city: city, trips: trips)
        let unusual = Set(leaveOut)
        let all = input.placement.trips.filter { !unusual.contains(CivilTime.dateText(daysFromEpoch: $0.day)) }
        let heldOut = holdOutEvery > 0 ? all.filter { $0.dayOfMonth % holdOutEvery == 0 } : []
        let fitted = holdOutEvery > 0 ? all.filter { $0.dayOfMonth % holdOutEvery != 0 } : all
        guard !fitted.isEmpty else {
            throw BadInput("no trips left to fit on after holding out the days divisible by \(holdOutEvery)")
        }
        print(
            "\(input.report.file): \(input.placement.trips.count) trips placed on the roads, \(input.leftOut.values.reduce(0, +)) left out"
                + (unusual.isEmpty
                    ? "" : ", \(input.placement.trips.count - all.count) more on \(unusual.sorted().joined(separator: ", "))")
                + "; fitting on \(fitted.count), holding out \(heldOut.count)"
        )
        var options = CalibrationFit.Options()
        options.rounds = rounds
        options.cellMetres = cellM > 0 ? cellM : nil
        options.pickupDwellSeconds = pickupDwell
        options.dropoffDwellSeconds = dropoffDwell
        let fit = CalibrationFit(trips: fitted, graph: input.graph, options: options)
        for (band, result) in zip(fit.model.bands, fit.bandFits) {
            let factors = RoadClass.allCases.map { "\($0) \(String(format: "%.2f", band.factor($0)))" }.joined(separator: ", ")
            print(
                String(
                    format: "%@ %02d–%02d h: %d trips, median error %.1f %%; junction %.1f s; leg %.0f s; ", band.days.rawValue,
                    band.fromHour, band.toHour, result.trips, result.medianAbsoluteError * 100, band.junctionSeconds,
                    band.legSeconds)
                    + factors)
        }
        let dates = Set(heldOut.map { CivilTime.dateText(daysFromEpoch: $0.day) }).sorted()
        let file = CalibrationFile(
            model: fit.model,
            fittedOn: "\(fitted.count) trips of \(input.report.file) on \((city as NSString).lastPathComponent), "
                + (holdOutEvery > 0 ? "days of the month divisible by \(holdOutEvery) held out" : "no day held out")
                + (unusual.isEmpty ? "" : "; left out as unusual: " + unusual.sorted().joined(separator: ", ")),
            heldOutDates: dates, leftOutDates: unusual.sorted())
        do {
            try file.yaml.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw BadInput("cannot write \(output): \(error.localizedDescription)")
        }
        print("wrote \(output)")
        if !heldOut.isEmpty {
            print("held-out trips (\(dates.count) days), calibrated:")
            let report = FidelityReport(
                trips: heldOut, router: TripRouter(graph: input.graph, model: fit.model), paceFrom: fitted)
            for line in report.lines { print("  " + line) }
        }
        print(String(format: "took %.1f s", (clock.now - started) / .seconds(1)))
    }
}
