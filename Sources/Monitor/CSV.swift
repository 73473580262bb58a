/// Comma-separated values as RFC 4180 writes them: a field with a comma, a quote or a line
/// break is quoted, its quotes doubled.
public enum CSV {
    /// The rows of a table as dictionaries keyed by its header (quoted fields read back whole).
    public static func rows(of text: String) -> [[String: String]] {
        var records = records(of: text)
        guard !records.isEmpty else { return [] }
        let header = records.removeFirst()
        return records.map { Dictionary(zip(header, $0), uniquingKeysWith: { first, _ in first }) }
    }

    /// Every record of `text`, each as its fields.
    public static func records(of text: String) -> [[String]] {
        var records: [[String]] = [], fields: [String] = [], field = ""
        var quoted = false, afterQuote = false
        for character in text {
            if quoted {
                if character == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"":
                // A doubled quote inside a quoted field is one quote.
                if afterQuote { field.append("\"") }
                quoted = true
            case ",":
                fields.append(field)
                field = ""
            case "\n", "\r\n":
                fields.append(field)
                records.append(fields)
                fields = []
                field = ""
            default:
                field.append(character)
            }
            afterQuote = false
        }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append(fields)
        }
        return records
    }

    public static func line(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\n"
    }
}

/// A simulated instant as a clock time of day (`17:05:09`), counting on past midnight as
/// GTFS does (`25:10:00` is 01:10 the next day), so that times sort and subtract as they read.
public struct ClockTimeOfDay: Sendable {
    /// Seconds after midnight at which the run's simulated time 0 falls.
    public let startSecondOfDay: Double

    public init(startSecondOfDay: Double) {
        self.startSecondOfDay = startSecondOfDay
    }

    /// Simulated `seconds` since the run began as `HH:MM:SS` of elapsed time (the clock of a run
    /// that starts at midnight).
    public static func elapsed(_ seconds: Double) -> String {
        ClockTimeOfDay(startSecondOfDay: 0).format(milliseconds: Int64(seconds * 1_000))
    }

    /// The time of day of simulated `milliseconds` since the run began.
    public func format(milliseconds: Int64) -> String {
        let seconds = Int((startSecondOfDay + Double(milliseconds) / 1_000).rounded(.down))
        let hours = seconds / 3_600, minutes = seconds / 60 % 60, rest = seconds % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + (rest < 10 ? "0" : "")
            + "\(rest)"
    }
}
