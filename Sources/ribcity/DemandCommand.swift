import ArgumentParser
import Demand
import Foundation

/// `ribcity demand FILE`: reads a trip-record file and reports what it holds and what was skipped.
struct DemandCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demand",
        abstract:
            "Read NYC TLC (yellow, green) or Uber 2014 trip records and report rows kept, bad rows skipped, "
            + "and the hourly profile.",
        discussion: """
            Examples:
              ribcity demand Topologies/data/nyc-yellow-2016-01-sample.csv
            """
    )

    @Argument(help: "The CSV file.")
    var file: String

    func run() throws {
        let (records, report): ([TripRecord], ReplayReport)
        do {
            (records, report) = try TripRecordReader.read(path: file)
        } catch {
            throw BadInput(error.description)
        }
        print(report)
        for problem in report.problems.prefix(5) { print("  \(problem)") }
        let profile = HourlyProfile.fitted(on: records)
        print("pickups by hour (relative): " + profile.weights.map { String(format: "%.2f", $0) }.joined(separator: " "))
        if let model = ODModel(fitting: records) { print("origin–destination model: fitted on \(model.tripCount) trips") }
    }
}
