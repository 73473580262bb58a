import ArgumentParser
import Calibration
import City
import Demand
import Foundation
import Topology

/// `ribcity fidelity --city OSM [--calibration FILE] --trips CSV`: replays each real trip's pickup
/// and drop-off through the routing a simulation uses and compares trip time and distance with
/// the meter's.
struct FidelityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fidelity",
        abstract:
            "Compare simulated trips with real ones: trip time and distance error by part of the day, against a straight-line baseline.",
        discussion: """
            With a calibration that lists held-out dates, only trips on those dates are compared (the
            trips it was not fitted on), and a yardstick is printed beside them: each trip's metered
            distance at the median pace of its hour on the days the calibration was fitted on (what the
            records' noise leaves even to a model that knew the route really driven); --all-days
            compares every trip.

            Examples:
              ribcity fidelity --city Topologies/data/manhattan-roads.osm.pbf \\
                --calibration Topologies/data/manhattan-calibration.yaml --trips Topologies/data/nyc-yellow-2016-01-sample.csv
              ribcity fidelity --city Topologies/data/manhattan-roads.osm.pbf --trips Topologies/data/nyc-yellow-2016-01-sample.csv --json
            """
    )

    @Option(help: "The OpenStreetMap file of the city.")
    var city: String

    @Option(help: "A calibration file (ribcity calibrate); without one, the posted speeds.")
    var calibration: String?

    @Option(help: "NYC TLC trip records (yellow or green) with drop-off times and distances.")
    var trips: String

    @Flag(help: "Compare trips of every day, also those the calibration was fitted on.")
    var allDays = false

    @Flag(help: "Print the figures as JSON.")
    var json = false

    @Option(help: "Write a page with a scatter plot of simulated against real trip time (HTML with SVG).")
    var plot: String?

    @Option(help: "Write every compared trip as a CSV row (record line, hour, real and simulated seconds and metres).")
    var points: String?

    func run() throws {
        let file: CalibrationFile?
        do {
            file = try calibration.map { path throws(TopologyError) in try CalibrationFile.read(path: path) }
        } catch {
            throw BadInput(error.description)
        }
        let input = try RealTripsInput(city: city, trips: trips)
        var compared = input.placement.trips
        var leftOut = input.leftOut
        if let unusual = file.map({ Set($0.leftOutDates) }), !unusual.isEmpty {
            let ordinary = compared.filter { !unusual.contains(CivilTime.dateText(daysFromEpoch: $0.day)) }
            leftOut["on days left out of the calibration as unusual"] = compared.count - ordinary.count
            compared = ordinary
        }
        var scope = "every day"
        var fittedOn: [RealTrip] = []
        if let file, !file.heldOutDates.isEmpty, !allDays {
            let dates = Set(file.heldOutDates)
            let kept = compared.filter { dates.contains(CivilTime.dateText(daysFromEpoch: $0.day)) }
            guard !kept.isEmpty else {
                throw BadInput(
                    "none of the trips falls on the \(dates.count) dates \((calibration! as NSString).lastPathComponent) held out; --all-days compares every trip"
                )
            }
            leftOut["on days the calibration was fitted on (--all-days compares them)"] = compared.count - kept.count
            fittedOn = compared.filter { !dates.contains(CivilTime.dateText(daysFromEpoch: $0.day)) }
            compared = kept
            scope = "the \(dates.count) days held out of the calibration"
        }
        let report = FidelityReport(
            trips: compared, router: TripRouter(graph: input.graph, model: file?.model), leftOut: leftOut, paceFrom: fittedOn)
        if let plot {
            let title =
                "Simulated against real trip time — "
                + (calibration.map { ($0 as NSString).lastPathComponent } ?? "posted speeds")
            do {
                try FidelityPlot.html(report, title: title).write(toFile: plot, atomically: true, encoding: .utf8)
            } catch {
                throw BadInput("cannot write \(plot): \(error.localizedDescription)")
            }
        }
        if let points {
            do {
                try report.pointsCSV.write(toFile: points, atomically: true, encoding: .utf8)
            } catch {
                throw BadInput("cannot write \(points): \(error.localizedDescription)")
            }
        }
        if json {
            var figures = report
            figures.points = []
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(figures), as: UTF8.self))
            return
        }
        print(
            "\((trips as NSString).lastPathComponent) on \((city as NSString).lastPathComponent), "
                + (calibration.map { "calibration \(($0 as NSString).lastPathComponent)" } ?? "posted speeds (no calibration)")
                + ", trips of \(scope)")
        for line in report.lines { print(line) }
        if let plot { print("plot: \(plot)") }
    }
}
