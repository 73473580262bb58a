import Foundation

/// Charts as inline SVG, for a report page that needs no network and no script: lines over
/// time, and bars stacked over time, with axes, a scale and a legend.
enum ReportCharts {
    struct Series {
        let name: String
        let colour: String
        let values: [Double?]
    }

    static let width = 760.0, height = 220.0, left = 48.0, bottom = 28.0, top = 24.0

    /// Lines of `series` over `times` (clock labels, one per point), from 0 up to their maximum.
    static func lines(_ series: [Series], times: [String], unit: String) -> String {
        let top = max(1, series.flatMap { $0.values.compactMap { $0 } }.max() ?? 1)
        var svg = frame(top: top, times: times, unit: unit)
        for line in series {
            var path = "", drawing = false
            for (index, value) in line.values.enumerated() {
                guard let value else {
                    drawing = false
                    continue
                }
                path += (drawing ? " L" : " M") + point(index, value, count: line.values.count, top: top)
                drawing = true
            }
            svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(line.colour)\" stroke-width=\"1.8\"/>"
        }
        return svg + legend(series) + "</svg>"
    }

    /// Bars of `series` stacked per point over `times`.
    static func stacked(_ series: [Series], times: [String], unit: String) -> String {
        let count = times.count
        let totals = (0..<count).map { index in series.reduce(0) { $0 + ($1.values[index] ?? 0) } }
        let top = max(1, totals.max() ?? 1)
        var svg = frame(top: top, times: times, unit: unit)
        let barWidth = (width - left - 24) / Double(max(1, count))
        for index in 0..<count {
            var base = 0.0
            for layer in series {
                let value = layer.values[index] ?? 0
                guard value > 0 else { continue }
                let y0 = y(base, top: top), y1 = y(base + value, top: top)
                svg += String(
                    format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%@\"/>",
                    left + Double(index) * barWidth, y1, max(0.5, barWidth - 0.3), y0 - y1, layer.colour)
                base += value
            }
        }
        return svg + legend(series) + "</svg>"
    }

    private static func frame(top: Double, times: [String], unit: String) -> String {
        var svg = String(
            format: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">",
            width, height, width, height)
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
        let axisY = height - bottom
        svg += String(format: "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#555\"/>", left, top, left, axisY)
        svg += String(
            format: "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#555\"/>", left, axisY, width - 24, axisY)
        for fraction in [0.0, 0.5, 1.0] {
            let value = top * fraction
            svg += String(
                format: "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%@</text>", left - 4,
                y(value, top: top) + 4,
                label(value))
            svg += String(
                format: "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>", left, y(value, top: top),
                width - 24,
                y(value, top: top))
        }
        svg += "<text x=\"4\" y=\"14\" font-size=\"11\">\(escape(unit))</text>"
        // A time label every so often along the bottom.
        let step = max(1, times.count / 8)
        for index in stride(from: 0, to: times.count, by: step) {
            let x = left + (width - left - 24) * Double(index) / Double(max(1, times.count - 1))
            svg += String(
                format: "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">%@</text>", x, height - 8,
                escape(times[index]))
        }
        return svg
    }

    private static func legend(_ series: [Series]) -> String {
        var svg = "", x = left + 8
        for line in series {
            svg += String(format: "<rect x=\"%.0f\" y=\"6\" width=\"12\" height=\"10\" fill=\"%@\"/>", x, line.colour)
            svg += String(format: "<text x=\"%.0f\" y=\"15\" font-size=\"11\">%@</text>", x + 16, escape(line.name))
            x += 24 + Double(line.name.count) * 6.5
        }
        return svg
    }

    private static func point(_ index: Int, _ value: Double, count: Int, top: Double) -> String {
        let x = left + (width - left - 24) * Double(index) / Double(max(1, count - 1))
        return String(format: "%.1f,%.1f", x, y(value, top: top))
    }

    private static func y(_ value: Double, top: Double) -> Double {
        (height - bottom) - (height - bottom - self.top) * value / top
    }

    private static func label(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// Text made safe inside HTML and SVG.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
