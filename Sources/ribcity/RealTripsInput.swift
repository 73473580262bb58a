import Calibration
import City
import Demand
import Foundation

/// A city and a file of real trips, read and placed on the city's roads for `calibrate` and
/// `fidelity`; bad files are usage errors naming the file.
struct RealTripsInput {
    let graph: RoadGraph
    let placement: TripPlacement
    /// Rows of the trip file that could not be read, with the file's own report.
    let report: ReplayReport

    init(city: String, trips: String) throws {
        graph = try ImportedCity(file: city).network.graph
        let records: [TripRecord]
        do {
            (records, report) = try TripRecordReader.read(path: trips)
        } catch {
            throw BadInput(error.description)
        }
        guard records.contains(where: { $0.dropoffTime != nil }) else {
            throw BadInput(
                "\((trips as NSString).lastPathComponent): no trip records a drop-off time (a pickup-only file cannot be compared)"
            )
        }
        placement = TripPlacement(records: records, graph: graph)
        guard !placement.trips.isEmpty else {
            throw BadInput(
                "\((trips as NSString).lastPathComponent): none of its \(records.count) trips can be placed on \((city as NSString).lastPathComponent)'s roads: "
                    + placement.leftOut.map { "\($0.count) \($0.reason)" }.joined(separator: "; "))
        }
    }

    /// Trips left out, by reason, counting unreadable rows too.
    var leftOut: [String: Int] {
        var reasons = Dictionary(placement.leftOut.map { ($0.reason, $0.count) }, uniquingKeysWith: +)
        let unreadable = report.rows - report.kept
        if unreadable > 0 { reasons["rows that could not be read (see ribcity demand)", default: 0] += unreadable }
        return reasons
    }
}
