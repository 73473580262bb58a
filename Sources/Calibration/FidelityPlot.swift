import Foundation

/// A page with a scatter plot of simulated against real trip time (one dot per trip, coloured by
/// part of the day, the line of perfect agreement drawn) and the report's figures: an SVG that
/// any browser shows, with no script and nothing fetched.
public enum FidelityPlot {
    public static func html(_ report: FidelityReport, title: String) -> String {
        let size = 560.0
        let margin = 56.0
        let plot = size - 2 * margin
        let limit = axisMinutes(report.points)
        func x(_ seconds: Double) -> Double { margin + min(seconds / 60, limit) / limit * plot }
        func y(_ seconds: Double) -> Double { size - margin - min(seconds / 60, limit) / limit * plot }
        let colours: [FidelityReport.Bucket: String] = [.night: "#3b5bdb", .day: "#e8590c", .evening: "#2b8a3e"]
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(size))\" height=\"\(Int(size))\" viewBox=\"0 0 \(Int(size)) \(Int(size))\" font-family=\"sans-serif\" font-size=\"12\">",
            "<rect x=\"\(margin)\" y=\"\(margin)\" width=\"\(plot)\" height=\"\(plot)\" fill=\"#fff\" stroke=\"#888\"/>",
        ]
        let step = limit <= 30 ? 5.0 : 10.0
        for tick in stride(from: 0.0, through: limit, by: step) {
            let px = x(tick * 60)
            let py = y(tick * 60)
            svg.append("<line x1=\"\(px)\" y1=\"\(margin)\" x2=\"\(px)\" y2=\"\(size - margin)\" stroke=\"#eee\"/>")
            svg.append("<line x1=\"\(margin)\" y1=\"\(py)\" x2=\"\(size - margin)\" y2=\"\(py)\" stroke=\"#eee\"/>")
            svg.append("<text x=\"\(px)\" y=\"\(size - margin + 16)\" text-anchor=\"middle\">\(Int(tick))</text>")
            svg.append("<text x=\"\(margin - 6)\" y=\"\(py + 4)\" text-anchor=\"end\">\(Int(tick))</text>")
        }
        svg.append(
            "<line x1=\"\(x(0))\" y1=\"\(y(0))\" x2=\"\(x(limit * 60))\" y2=\"\(y(limit * 60))\" stroke=\"#000\" stroke-dasharray=\"4 3\"/>"
        )
        for point in report.points {
            let colour = colours[FidelityReport.Bucket.of(hour: point.hour)]!
            svg.append(
                String(
                    format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.6\" fill=\"%@\" fill-opacity=\"0.45\"/>", x(point.realSeconds),
                    y(point.simulatedSeconds), colour))
        }
        svg.append("<text x=\"\(size / 2)\" y=\"\(size - 14)\" text-anchor=\"middle\">real trip time (minutes, the meter)</text>")
        svg.append(
            "<text x=\"16\" y=\"\(size / 2)\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(size / 2))\">simulated trip time (minutes)</text>"
        )
        for (index, bucket) in [FidelityReport.Bucket.night, .day, .evening].enumerated() {
            let top = margin + 14 + Double(index) * 16
            svg.append("<circle cx=\"\(margin + 12)\" cy=\"\(top - 4)\" r=\"4\" fill=\"\(colours[bucket]!)\"/>")
            svg.append("<text x=\"\(margin + 22)\" y=\"\(top)\">\(bucket.rawValue)</text>")
        }
        svg.append("</svg>")
        let rows = report.figures.map { figure in
            "<tr><td>\(figure.bucket)</td><td>\(figure.trips)</td><td>\(FidelityReport.percent(figure.tripTimeMedianAbsolutePercentError)) %</td>"
                + "<td>\(FidelityReport.signed(figure.tripTimeMedianBiasPercent)) %</td>"
                + "<td>\(FidelityReport.percent(figure.distanceMeanAbsolutePercentError)) %</td>"
                + "<td>\(FidelityReport.percent(figure.baselineTripTimeMedianAbsolutePercentError)) %</td>"
                + "<td>\(FidelityReport.percent(figure.baselineDistanceMeanAbsolutePercentError)) %</td></tr>"
        }
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>\(escape(title))</title>
            <style>body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right}td:first-child,th:first-child{text-align:left}</style>
            </head><body>
            <h1>\(escape(title))</h1>
            <p>\(report.compared) real trips compared, \(report.leftOut.values.reduce(0, +)) left out. Each dot is one trip: the meter's time across, the simulated trip's time up; on the dashed line they agree.</p>
            \(svg.joined(separator: "\n"))
            <table><tr><th>part of the day</th><th>trips</th><th>trip time median abs. error</th><th>median bias</th><th>distance MAPE</th><th>baseline time error</th><th>baseline distance error</th></tr>
            \(rows.joined(separator: "\n"))
            </table>
            <p>Baseline: the straight line × 1.3 at 20 km/h.</p>
            </body></html>

            """
    }

    /// The axes' length in minutes: enough for all but the longest 1 % of trips, in tens, 10 to 90.
    static func axisMinutes(_ points: [FidelityReport.Point]) -> Double {
        let longest = points.map { max($0.realSeconds, $0.simulatedSeconds) }.sorted()
        let kept = longest.dropLast(max(1, longest.count / 100)).last ?? 600
        return min(90, max(10, (kept / 600).rounded(.up) * 10))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
