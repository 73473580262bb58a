import CSV
import City
import Foundation

/// Reads NYC TLC trip files (yellow and green) and Uber 2014 pickup files, recognising the layout
/// by its header. A bad row (wrong number of fields, a date or number that does not parse, an
/// unknown 0,0 position) is reported with its line and skipped; the report counts them all.
public enum TripRecordReader {
    public static func read(path: String) throws(DemandError) -> (records: [TripRecord], report: ReplayReport) {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DemandError(file: name, reason: "cannot be read (missing or not permitted)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw DemandError(file: name, reason: "is not UTF-8 text")
        }
        return try read(text: text, file: name)
    }

    /// Reads records from CSV text; `file` names it in errors and the report.
    public static func read(text: String, file: String) throws(DemandError) -> (records: [TripRecord], report: ReplayReport) {
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw DemandError(file: file, reason: "line 1: no header row (\(error))")
        }
        guard let header = reader.headerRow else { throw DemandError(file: file, reason: "line 1: no header row") }
        guard let format = TripFileFormat.detect(header: header) else {
            throw DemandError(file: file, reason: "line 1: " + TripFileFormat.mismatch(header: header))
        }
        let lowered = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func column(_ name: String?) -> Int? { name.flatMap { lowered.firstIndex(of: $0.lowercased()) } }
        let columns = format.columns
        let time = column(columns.time)!, lat = column(columns.lat)!, lon = column(columns.lon)!
        let dropoff = column(columns.dropoffLat).flatMap { a in column(columns.dropoffLon).map { (a, $0) } }
        let dropoffTime = column(format.dropoffTime)
        let meteredMiles = column(format.meteredMiles)

        var report = ReplayReport(file: file, format: format)
        var records: [TripRecord] = []
        // One record per line (these files quote no line breaks): the header is line 1.
        var line = 1
        while let row = reader.next() {
            line += 1
            if row.count == 1 && row[0].isEmpty { continue }
            report.rows += 1
            guard row.count == header.count else {
                report.skip(line: line, "has \(row.count) fields where the header has \(header.count)")
                continue
            }
            guard let when = CivilTime.parse(Substring(row[time])) else {
                report.skip(line: line, "\(header[time]) is not a date-time")
                continue
            }
            var ended: Double?
            if let dropoffTime {
                ended = CivilTime.parse(Substring(row[dropoffTime]))
                if let ended, ended < when {
                    report.skip(line: line, "\(header[dropoffTime]) \(row[dropoffTime]) is before \(header[time]) \(row[time])")
                    continue
                }
            }
            let miles = meteredMiles.flatMap { Double(row[$0].trimmingCharacters(in: .whitespaces)) }.flatMap {
                $0 >= 0 && $0.isFinite ? $0 : nil
            }
            let pickup: GeoPoint
            switch position(row[lat], row[lon], header[lat], header[lon]) {
            case .success(let point): pickup = point
            case .failure(let problem):
                report.skip(line: line, problem.reason)
                continue
            }
            var end: GeoPoint?
            if let (dropLat, dropLon) = dropoff {
                switch position(row[dropLat], row[dropLon], header[dropLat], header[dropLon]) {
                case .success(let point): end = point
                case .failure(let problem):
                    report.skip(line: line, problem.reason)
                    continue
                }
            }
            records.append(
                TripRecord(
                    pickupTime: when, pickup: pickup, dropoff: end, line: line, dropoffTime: ended,
                    meteredMetres: miles.map { $0 * 1_609.344 }))
            report.kept += 1
        }
        if let error = reader.error {
            throw DemandError(file: file, reason: "line \(line + 1): \(error)")
        }
        return (records, report)
    }

    private struct Problem: Error { let reason: String }

    private static func position(
        _ latText: String, _ lonText: String, _ latName: String, _ lonName: String
    ) -> Result<GeoPoint, Problem> {
        guard let lat = Double(latText.trimmingCharacters(in: .whitespaces)) else {
            return .failure(Problem(reason: "\(latName) is not a number"))
        }
        guard let lon = Double(lonText.trimmingCharacters(in: .whitespaces)) else {
            return .failure(Problem(reason: "\(lonName) is not a number"))
        }
        if lat == 0 && lon == 0 { return .failure(Problem(reason: "\(latName)/\(lonName) are 0, 0 (position unknown)")) }
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            return .failure(Problem(reason: "\(latName)/\(lonName) are out of range"))
        }
        return .success(GeoPoint(lat: lat, lon: lon))
    }
}
