import City
import Foundation
import Yams

/// A travel-time calibration as a file (`ribcity calibrate` writes it, a topology names it with
/// `city: { calibration: FILE }`): the ``TravelTimeModel`` and where it was fitted. The format is
/// in docs/FIDELITY.md; errors name the file, the key, the line and the reason.
public struct CalibrationFile: Sendable, Equatable {
    public static let format = "ribcity-calibration/1"

    public var model: TravelTimeModel
    /// What it was fitted on (free text for people), and the dates of the trips held out of the
    /// fit (`2016-01-03`), which `ribcity fidelity` compares by default.
    public var fittedOn: String
    public var heldOutDates: [String]
    /// Days left out of the fit and of comparisons because their traffic was not ordinary.
    public var leftOutDates: [String]

    public init(model: TravelTimeModel, fittedOn: String, heldOutDates: [String], leftOutDates: [String] = []) {
        self.model = model
        self.fittedOn = fittedOn
        self.heldOutDates = heldOutDates
        self.leftOutDates = leftOutDates
    }

    public static func read(path: String) throws(TopologyError) -> CalibrationFile {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw TopologyError(file: name, key: "", line: nil, reason: "cannot be read (missing, not permitted, or not UTF-8)")
        }
        return try parse(text, file: name)
    }

    public static func parse(_ text: String, file: String) throws(TopologyError) -> CalibrationFile {
        var top = try YAMLFields(document: text, file: file)
        guard let format = try top.string("format") else { throw top.error("format", "is required (\(Self.format))") }
        guard format == Self.format else { throw top.error("format", "'\(format)' is not \(Self.format)") }
        let fittedOn = try top.string("fitted_on") ?? ""
        let heldOut = try dates("held_out_dates", in: &top)
        let leftOut = try dates("left_out_dates", in: &top)
        var dwell = try top.fields("dwell")
        let pickup = try dwell?.double("pickup_s", in: 0...3_600) ?? 0
        let dropoff = try dwell?.double("dropoff_s", in: 0...3_600) ?? 0
        try dwell?.finish()
        guard let bandsNode = top.node("bands") else { throw top.error("bands", "is required (a list of bands of the day)") }
        guard let bandItems = bandsNode.sequence, !bandItems.isEmpty else {
            throw top.error("bands", "must be a list of bands of the day", at: bandsNode)
        }
        var bands: [TravelTimeModel.Band] = []
        for (index, item) in bandItems.enumerated() {
            var band = try YAMLFields(item, path: "bands[\(index)]", file: file)
            guard let days = try band.choice("days", DayKind.allCases.map(\.rawValue)).flatMap(DayKind.init(rawValue:)) else {
                throw band.error("days", "is required (weekday or weekend)")
            }
            guard let hours = try band.range("hours", in: 0...24), hours.lowerBound < hours.upperBound,
                hours.lowerBound == hours.lowerBound.rounded(), hours.upperBound == hours.upperBound.rounded()
            else { throw band.error("hours", "is required: [from, to], whole hours with from < to, within 0…24") }
            let junction = try band.double("junction_s", in: 0...600) ?? 0
            let leg = try band.double("leg_s", in: 0...3_600) ?? 0
            var factors = try band.fields("factors")
            let values = try RoadClass.allCases.map { roadClass throws(TopologyError) -> Double in
                try factors?.double(roadClass.description, in: 0.01...100) ?? 1
            }
            try factors?.finish()
            try band.finish()
            bands.append(
                TravelTimeModel.Band(
                    days: days, fromHour: Int(hours.lowerBound), toHour: Int(hours.upperBound), classFactors: values,
                    junctionSeconds: junction, legSeconds: leg))
        }
        var zones: TravelTimeModel.Zones?
        if var section = try top.fields("zones") {
            let origin = try section.node("origin").map { node throws(TopologyError) -> GeoPoint in
                let numbers = (node.sequence.map(Array.init) ?? []).map { $0.float ?? $0.int.map(Double.init) }
                guard numbers.count == 2, let lat = numbers[0], let lon = numbers[1], (-90...90).contains(lat),
                    (-180...180).contains(lon)
                else { throw section.error("origin", "must be [lat, lon]", at: node) }
                return GeoPoint(lat: lat, lon: lon)
            }
            guard let origin else { throw section.error("origin", "is required ([lat, lon] of the south-west corner)") }
            guard let cell = try section.double("cell_m", in: 50...100_000) else { throw section.error("cell_m", "is required") }
            guard let columns = try section.int("columns", in: 1...10_000) else { throw section.error("columns", "is required") }
            guard let rows = try section.int("rows", in: 1...10_000) else { throw section.error("rows", "is required") }
            guard let node = section.node("factors") else {
                throw section.error("factors", "is required (columns × rows numbers)")
            }
            let numbers = (node.sequence.map(Array.init) ?? []).map { $0.float ?? $0.int.map(Double.init) }
            guard numbers.count == columns * rows, numbers.allSatisfy({ $0 != nil && $0! > 0 && $0! < 100 }) else {
                throw section.error(
                    "factors", "must be \(columns * rows) positive numbers (columns × rows), not \(numbers.count)", at: node)
            }
            try section.finish()
            zones = TravelTimeModel.Zones(
                origin: origin, cellMetres: cell, columns: columns, rows: rows, factors: numbers.map { $0! })
        }
        var hourScale: [DayKind: [Double]] = [:]
        if var scales = try top.fields("hour_scale") {
            for days in DayKind.allCases {
                guard let node = scales.node(days.rawValue) else { continue }
                let numbers = (node.sequence.map(Array.init) ?? []).map { $0.float ?? $0.int.map(Double.init) }
                guard numbers.count == 24, numbers.allSatisfy({ $0 != nil && $0! > 0 && $0! < 100 }) else {
                    throw scales.error(days.rawValue, "must be a list of 24 positive numbers, one per hour", at: node)
                }
                hourScale[days] = numbers.map { $0! }
            }
            try scales.finish()
        }
        try top.finish()
        let model = TravelTimeModel(
            bands: bands, zones: zones, hourScale: hourScale, pickupDwellSeconds: pickup, dropoffDwellSeconds: dropoff)
        if let problem = model.coverageProblems.first {
            throw top.error("bands", "must cover every hour of weekdays and weekends exactly once: \(problem)", at: bandsNode)
        }
        return CalibrationFile(model: model, fittedOn: fittedOn, heldOutDates: heldOut, leftOutDates: leftOut)
    }

    /// A list of dates such as `2016-01-03` under `key` (none if the key is absent).
    private static func dates(_ key: String, in fields: inout YAMLFields) throws(TopologyError) -> [String] {
        guard let node = fields.node(key) else { return [] }
        guard let items = node.sequence else { throw fields.error(key, "must be a list of dates", at: node) }
        return try items.map { [fields] item throws(TopologyError) -> String in
            guard let text = item.string, text.count == 10 else {
                throw fields.error(key, "'\(item.string ?? "a structure")' is not a date such as 2016-01-03", at: item)
            }
            return text
        }
    }

    /// The file's text, which ``parse(_:file:)`` reads back to the same calibration (numbers
    /// rounded to four significant decimals).
    public var yaml: String {
        func number(_ value: Double) -> String {
            let text = String(format: "%.4f", value)
            var trimmed = text
            while trimmed.hasSuffix("0") { trimmed.removeLast() }
            if trimmed.hasSuffix(".") { trimmed.removeLast() }
            return trimmed
        }
        var lines = [
            "# Travel times calibrated on real trips (ribcity calibrate); the format is in docs/FIDELITY.md.",
            "format: \(Self.format)",
            "fitted_on: \"\(fittedOn.replacingOccurrences(of: "\"", with: "'"))\"",
            "held_out_dates: [\(heldOutDates.map { "\"\($0)\"" }.joined(separator: ", "))]",
            "left_out_dates: [\(leftOutDates.map { "\"\($0)\"" }.joined(separator: ", "))]",
            "dwell: { pickup_s: \(number(model.pickupDwellSeconds)), dropoff_s: \(number(model.dropoffDwellSeconds)) }",
            "bands:",
        ]
        for band in model.bands {
            let factors = RoadClass.allCases.map { "\($0): \(number(band.factor($0)))" }.joined(separator: ", ")
            lines.append(
                "  - { days: \(band.days.rawValue), hours: [\(band.fromHour), \(band.toHour)], "
                    + "junction_s: \(number(band.junctionSeconds)), leg_s: \(number(band.legSeconds)), factors: { \(factors) } }")
        }
        if let zones = model.zones {
            lines.append(
                "zones: { origin: [\(String(format: "%.6f", zones.origin.lat)), \(String(format: "%.6f", zones.origin.lon))], "
                    + "cell_m: \(number(zones.cellMetres)), columns: \(zones.columns), rows: \(zones.rows), factors: [")
            for row in 0..<zones.rows {
                let values = zones.factors[(row * zones.columns)..<((row + 1) * zones.columns)].map(number)
                lines.append("    " + values.joined(separator: ", ") + (row == zones.rows - 1 ? "] }" : ","))
            }
        }
        if !model.hourScale.isEmpty {
            lines.append("hour_scale:")
            for days in DayKind.allCases {
                guard let scales = model.hourScale[days] else { continue }
                lines.append("  \(days.rawValue): [\(scales.map(number).joined(separator: ", "))]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
