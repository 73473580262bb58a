/// The queries `ribcity-recorder report` prints: examples of what the schema answers.
public enum RunReport {
    public static let queries: [(title: String, sql: String)] = [
        (
            "Per simulated minute (the minute_kpis view):",
            "SELECT minute, requests, matched, pickups, completed, cancelled, rejected, mean_pickup_wait_s, "
                + "max_surge FROM minute_kpis"
        ),
        (
            "How trips ended:",
            """
            SELECT COALESCE(outcome, 'open') AS outcome, COUNT(*) AS trips, ROUND(AVG(pickup_wait_s), 1) AS mean_pickup_wait_s,
                   SUM(fare_cents) AS fares_cents, SUM(offers) AS offers, SUM(declines) AS declines
            FROM trips GROUP BY outcome ORDER BY trips DESC
            """
        ),
        (
            "Requests that ended more than once (none, if dispatch kept its promise):",
            """
            SELECT request_id, GROUP_CONCAT(kind) AS endings FROM events
            WHERE kind IN ('tripCompleted', 'requestCancelled', 'requestRejected')
            GROUP BY request_id HAVING COUNT(*) > 1 LIMIT 10
            """
        ),
        (
            "Processes at their last report:",
            """
            SELECT process_id, role, MAX(sim_time_ms) / 1000 AS at_s, messages_in, messages_out, ROUND(cpu_seconds, 1) AS cpu_s,
                   rss_bytes / 1048576 AS rss_mb, leaks, malformed
            FROM process_status GROUP BY process_id ORDER BY process_id
            """
        ),
    ]

    /// Rows as an aligned text table (or "(none)").
    public static func table(_ rows: [[(column: String, value: String)]]) -> String {
        guard let first = rows.first else { return "  (none)\n" }
        let columns = first.map(\.column)
        let widths = columns.indices.map { index in max(columns[index].count, rows.map { $0[index].value.count }.max() ?? 0) }
        func line(_ cells: [String]) -> String {
            "  " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }
        return ([line(columns)] + rows.map { line($0.map(\.value)) }).joined(separator: "\n") + "\n"
    }
}
