import Foundation
import Monitor

/// One self-contained HTML page about a run (`ribcity report RUN --html`): its KPIs, and charts
/// over the day — pickup waits (p50, p95), requests, completions and cancellations per minute,
/// drivers by state — and demand, waits and surge per zone. Inline SVG and CSS: no script, no
/// network. From the run's `summary.json`, `trips.csv` and `drivers.csv`.
public struct HTMLReport: Sendable {
    public let html: String

    /// The page of the run in `directory`, whose summary is `summary` (read from it if not given).
    public init(_ directory: RunDirectory, summary: RunSummary? = nil) throws(RunComparisonError) {
        let known: RunSummary
        if let summary { known = summary } else { known = try directory.summary() }
        html = Self.page(
            name: (directory.path as NSString).lastPathComponent, summary: known, trips: directory.table("trips.csv") ?? [],
            drivers: directory.table("drivers.csv") ?? [])
    }

    /// Seconds of the day of a clock time (`17:05:09`, or past midnight `25:10:00`).
    static func seconds(_ text: String?) -> Int? {
        guard let parts = text?.split(separator: ":").compactMap({ Int($0) }), parts.count == 3 else { return nil }
        return parts[0] * 3_600 + parts[1] * 60 + parts[2]
    }

    static func clock(minute: Int) -> String { String(format: "%02d:%02d", minute / 60, minute % 60) }

    /// The `p` percentile, interpolated between the two nearest values (the median of 80 and 90 is 85).
    static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let position = Double(sorted.count - 1) * p
        let lower = Int(position.rounded(.down)), upper = Int(position.rounded(.up))
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    static func page(name: String, summary: RunSummary, trips: [[String: String]], drivers: [[String: String]]) -> String {
        let esc = ReportCharts.escape
        let minute = { (key: String, trip: [String: String]) in seconds(trip[key]).map { $0 / 60 } }
        let first = trips.compactMap { minute("requested_at", $0) }.min() ?? 0
        let last = max(first, trips.compactMap { minute("ended_at", $0) ?? minute("requested_at", $0) }.max() ?? first)
        let span = Array(first...last)
        let labels = span.map(clock(minute:))
        func perMinute(_ key: String, outcome: String? = nil) -> [Double?] {
            var counts = [Int: Int]()
            for trip in trips where outcome == nil || trip["outcome"] == outcome {
                if let m = minute(key, trip) { counts[m, default: 0] += 1 }
            }
            return span.map { Double(counts[$0] ?? 0) }
        }
        // Pickup waits by the five minutes of their pickup.
        var waits = [Int: [Double]]()
        for trip in trips {
            if let m = minute("picked_up_at", trip), let wait = Double(trip["pickup_wait_s"] ?? "") {
                waits[m / 5 * 5, default: []].append(wait)
            }
        }
        let waitBins = Array(stride(from: first / 5 * 5, through: last, by: 5))
        // Drivers by state at the start of each minute, from the trips' intervals.
        var enRoute = [Int: Set<String>](), onTrip = [Int: Set<String>]()
        for trip in trips {
            guard let driver = trip["driver_id"], !driver.isEmpty else { continue }
            let matched = minute("matched_at", trip), picked = minute("picked_up_at", trip)
            let ended = minute("dropped_off_at", trip) ?? minute("ended_at", trip) ?? last
            if let matched { for m in matched..<max(matched, picked ?? ended) { enRoute[m, default: []].insert(driver) } }
            if let picked { for m in picked..<max(picked, ended) { onTrip[m, default: []].insert(driver) } }
        }
        let fleet = Double(drivers.count)
        let trip = span.map { Double(onTrip[$0]?.count ?? 0) }
        let toPickup = span.map { Double(enRoute[$0, default: []].subtracting(onTrip[$0, default: []]).count) }
        let idle = zip(trip, toPickup).map { max(0, fleet - $0 - $1) }

        var body = "<h1>\(esc(name))</h1>"
        body +=
            "<p>\(esc(summary.topology)): \(esc(summary.outcome.description)) after "
            + String(format: "%.1f s of wall time; %.0f simulated seconds", summary.wallSeconds, summary.kpis.simTimeSeconds)
            + (summary.virtualTime == nil ? String(format: " at %.0f×", summary.speed) : " in virtual time") + ".</p>"
        let totals = summary.kpis.totals
        let kpis: [(String, String)] = [
            ("requests", "\(summary.requests)"), ("completed", "\(totals["completed"] ?? 0)"),
            ("cancelled", "\(totals["cancelled"] ?? 0)"), ("rejected", "\(totals["rejected"] ?? 0)"),
            ("pickup wait p50 / p95", String(format: "%.0f s / %.0f s", summary.kpis.pickupWaitP50, summary.kpis.pickupWaitP95)),
            (
                "highest surge",
                String(format: "%.1f×", summary.kpis.maxSurge) + (summary.kpis.maxSurgeZone.map { " (\($0))" } ?? "")
            ),
            ("drivers", "\(drivers.count)"),
        ]
        body +=
            "<table class=\"kpis\">" + kpis.map { "<tr><th>\(esc($0.0))</th><td>\(esc($0.1))</td></tr>" }.joined() + "</table>"
        if summary.kpisDependOnMachine {
            body += "<p class=\"warn\">Processes fell behind the clock in this run: its KPIs depend on the machine.</p>"
        }
        if let verdict = summary.verdict {
            body +=
                "<h2>Verdict: " + (verdict.passed ? "every check passed" : "a check FAILED") + "</h2><table>"
                + verdict.rows.map {
                    "<tr><td>\($0.passed ? "pass" : "FAIL")</td><td>\(esc($0.check))</td><td>\(esc($0.detail))</td></tr>"
                }.joined() + "</table>"
        }
        body +=
            "<h2>Pickup wait over the day</h2>"
            + ReportCharts.lines(
                [
                    .init(name: "p50", colour: "#1f77b4", values: waitBins.map { waits[$0].flatMap { percentile($0, 0.5) } }),
                    .init(name: "p95", colour: "#d62728", values: waitBins.map { waits[$0].flatMap { percentile($0, 0.95) } }),
                ], times: waitBins.map(clock(minute:)), unit: "seconds")
        body +=
            "<h2>Requests, completions and cancellations per minute</h2>"
            + ReportCharts.lines(
                [
                    .init(name: "requests", colour: "#1f77b4", values: perMinute("requested_at")),
                    .init(name: "completed", colour: "#2ca02c", values: perMinute("dropped_off_at", outcome: "completed")),
                    .init(name: "cancelled", colour: "#d62728", values: perMinute("ended_at", outcome: "cancelled")),
                ], times: labels, unit: "per minute")
        body +=
            "<h2>Drivers by state</h2>"
            + ReportCharts.stacked(
                [
                    .init(name: "on trip", colour: "#2ca02c", values: trip),
                    .init(name: "to pickup", colour: "#ff7f0e", values: toPickup),
                    .init(name: "idle", colour: "#c7c7c7", values: idle),
                ], times: labels, unit: "drivers")
        body += "<h2>Zones</h2>" + zoneTable(trips)
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(esc(name)) — ribcity report</title>
            <style>
            body { font: 14px/1.4 sans-serif; margin: 24px; color: #222; max-width: 800px; }
            table { border-collapse: collapse; margin: 8px 0 16px; }
            th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
            td.n { text-align: right; }
            .warn { color: #a00; }
            h2 { font-size: 16px; margin-top: 24px; }
            </style></head>
            <body>\(body)</body></html>

            """
    }

    /// Demand, completion, pickup waits and quoted surge per pickup zone, busiest first.
    static func zoneTable(_ trips: [[String: String]]) -> String {
        var zones = [String: [[String: String]]]()
        for trip in trips {
            zones[trip["pickup_zone"].flatMap { $0.isEmpty ? nil : $0 } ?? "(unknown)", default: []].append(trip)
        }
        let rows = zones.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }.map { zone, trips -> String in
            let completed = trips.filter { $0["outcome"] == "completed" }.count
            let waits = trips.compactMap { Double($0["pickup_wait_s"] ?? "") }
            let surges = trips.compactMap { Double($0["surge"] ?? "") }
            let cells = [
                "\(trips.count)", String(format: "%.0f %%", Double(completed) / Double(trips.count) * 100),
                percentile(waits, 0.5).map { String(format: "%.0f s", $0) } ?? "–",
                surges.isEmpty ? "–" : String(format: "%.2f×", surges.reduce(0, +) / Double(surges.count)),
            ]
            return "<tr><td>\(ReportCharts.escape(zone))</td>" + cells.map { "<td class=\"n\">\($0)</td>" }.joined() + "</tr>"
        }
        return
            "<table><tr><th>zone</th><th>requests</th><th>completed</th><th>pickup wait p50</th><th>mean surge quoted</th></tr>"
            + rows.joined() + "</table>"
    }
}
