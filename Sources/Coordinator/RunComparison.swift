import Foundation
import Monitor

/// Two runs' KPIs side by side with their differences: the A/B view of a marketplace study
/// (`ribcity compare RUN_A RUN_B`). From each run's `summary.json`, and its `trips.csv` and
/// `drivers.csv` where it has them.
public struct RunComparison: Sendable {
    /// One KPI of both runs.
    public struct Row: Sendable, Equatable {
        public let name: String
        public let a: Double?
        public let b: Double?
        /// How the values read: `%` for shares (their difference is in points), or a unit.
        public let unit: String

        public var difference: Double? { a.flatMap { a in b.map { $0 - a } } }
        /// B relative to A, as a fraction (nil when A is 0 or either is missing).
        public var relative: Double? {
            guard let a, let b, a != 0, unit != "%" else { return nil }
            return (b - a) / a
        }
    }

    public let nameA: String
    public let nameB: String
    public let rows: [Row]
    /// Why the two runs may not be comparable (different topologies, machine-dependent KPIs).
    public let cautions: [String]

    /// Reads both run directories.
    public init(_ a: RunDirectory, _ b: RunDirectory) throws {
        let (summaryA, summaryB) = (try a.summary(), try b.summary())
        nameA = (a.path as NSString).lastPathComponent
        nameB = (b.path as NSString).lastPathComponent
        let kpisA = Self.kpis(summaryA, trips: a.table("trips.csv"), drivers: a.table("drivers.csv"))
        let kpisB = Self.kpis(summaryB, trips: b.table("trips.csv"), drivers: b.table("drivers.csv"))
        rows = kpisA.map { name, unit, value in
            Row(name: name, a: value, b: kpisB.first { $0.name == name }?.value, unit: unit)
        }
        var cautions: [String] = []
        if summaryA.topology != summaryB.topology {
            cautions.append("the runs are of different topologies (\(summaryA.topology), \(summaryB.topology))")
        }
        for (name, summary) in [(nameA, summaryA), (nameB, summaryB)] {
            if summary.kpisDependOnMachine {
                cautions.append(
                    "\(name) lagged behind the clock: its KPIs depend on the machine (virtual time makes runs comparable)")
            }
            if !summary.outcome.isCompleted { cautions.append("\(name) did not complete (\(summary.outcome))") }
        }
        self.cautions = cautions
    }

    /// The comparison as a table for a terminal.
    public var text: String {
        let header = ["", "A", "B", "B − A", "B / A"]
        let body = rows.map { row -> [String] in
            [
                row.name + (row.unit.isEmpty ? "" : " (\(row.unit))"), Self.format(row.a, row.unit),
                Self.format(row.b, row.unit),
                row.difference.map { (($0 > 0 ? "+" : "") + Self.format($0, row.unit)) + (row.unit == "%" ? " pt" : "") } ?? "–",
                row.relative.map { String(format: "%+.1f %%", $0 * 100) } ?? "–",
            ]
        }
        let table = [header] + body
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        var lines = ["A: \(nameA)", "B: \(nameB)", ""]
        lines += table.map { row in
            row.enumerated().map { column, cell in
                column == 0
                    ? cell.padding(toLength: widths[0], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
        lines += cautions.map { "caution: " + $0 }
        return lines.joined(separator: "\n")
    }

    private static func format(_ value: Double?, _ unit: String) -> String {
        guard let value else { return "–" }
        if unit == "%" { return String(format: "%.1f", value * 100) }
        return value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : String(format: "%.2f", value)
    }

    /// The KPIs of one run, in the order they are shown.
    private static func kpis(
        _ summary: RunSummary, trips: [[String: String]]?, drivers: [[String: String]]?
    )
        -> [(name: String, unit: String, value: Double?)]
    {
        let totals = summary.kpis.totals
        let requests = Double(summary.requests)
        func share(_ key: String) -> Double? { requests > 0 ? Double(totals[key] ?? 0) / requests : nil }
        var rows: [(String, String, Double?)] = [
            ("requests", "", requests),
            ("completed", "", Double(totals["completed"] ?? 0)),
            ("completed share", "%", share("completed")),
            ("cancelled share", "%", share("cancelled")),
            ("rejected share", "%", share("rejected")),
            ("across a shard border", "%", share("handed_over")),
            ("pickup wait p50", "s", summary.kpis.pickupWaitP50),
            ("pickup wait p95", "s", summary.kpis.pickupWaitP95),
            ("highest surge", "×", summary.kpis.maxSurge),
        ]
        let completed = trips?.filter { $0["outcome"] == "completed" }
        func sum(_ rows: [[String: String]]?, _ key: String) -> Double? {
            rows.map { $0.reduce(0) { $0 + (Double($1[key] ?? "") ?? 0) } }
        }
        rows.append(("riders paid", "$", sum(completed, "fare_cents").map { $0 / 100 }))
        rows.append(("drivers earned", "$", sum(completed, "driver_earns_cents").map { $0 / 100 }))
        rows.append(
            (
                "mean trip", "km",
                completed.flatMap { $0.isEmpty ? nil : sum($0, "trip_m").map { $0 / Double(completed!.count) / 1000 } }
            ))
        let pooled = completed.map { $0.filter { !($0["pooled_with"] ?? "").isEmpty }.count }
        rows.append(
            (
                "pooled share of completed", "%",
                pooled.flatMap { count in completed!.isEmpty ? nil : Double(count) / Double(completed!.count) }
            ))
        let empty = sum(drivers, "empty_m"), loaded = sum(drivers, "loaded_m")
        rows.append(
            ("deadhead share", "%", empty.flatMap { empty in loaded.flatMap { empty + $0 > 0 ? empty / (empty + $0) : nil } }))
        let online = sum(drivers, "online_s"), onTrip = sum(drivers, "on_trip_s")
        rows.append(
            ("drivers' time on trip", "%", online.flatMap { online in onTrip.flatMap { online > 0 ? $0 / online : nil } }))
        rows.append(("wall time", "s", summary.wallSeconds))
        return rows
    }
}

/// A run directory that cannot be compared, and why.
public struct RunComparisonError: Error, CustomStringConvertible {
    public let description: String
}
