import Foundation

/// The transport benchmark's results with their ratios to raw libzmq (with the same security),
/// and for CURVE cases to the same implementation in the clear.
public struct TransportReport: Sendable {
    public var throughput: [TransportBenchmark.Throughput] = []
    public var roundTrips: [TransportBenchmark.RoundTrip] = []

    public init() {}

    private func rate(
        _ row: TransportBenchmark.Throughput, _ implementation: TransportBenchmark.Implementation, _ security: BenchSecurity
    )
        -> Double?
    {
        throughput.first {
            $0.link == row.link && $0.size == row.size && $0.implementation == implementation && $0.security == security
        }?.messagesPerSecond
    }

    private func latency(
        _ row: TransportBenchmark.RoundTrip, _ implementation: TransportBenchmark.Implementation, _ security: BenchSecurity
    ) -> TransportBenchmark.RoundTrip? {
        roundTrips.first { $0.link == row.link && $0.implementation == implementation && $0.security == security }
    }

    private func format(_ value: Double, _ digits: Int = 2) -> String {
        String(format: "%.\(digits)f", value)
    }

    private func rows() -> (one: [[String]], trip: [[String]]) {
        let one = throughput.map { row in
            let plain = row.security == .curve ? rate(row, row.implementation, .plain) : nil
            return [
                row.link.rawValue, "\(row.size)", row.implementation.rawValue, row.security.rawValue,
                String(Int(row.messagesPerSecond)),
                rate(row, .raw, row.security).map { format(row.messagesPerSecond / $0) } ?? "-",
                plain.map { format(row.messagesPerSecond / $0) } ?? "-",
            ]
        }
        let trip = roundTrips.map { row in
            let raw = latency(row, .raw, row.security)
            let plain = row.security == .curve ? latency(row, row.implementation, .plain) : nil
            return [
                row.link.rawValue, row.implementation.rawValue, row.security.rawValue, format(row.p50Microseconds, 1),
                format(row.p99Microseconds, 1),
                raw.map { format(row.p50Microseconds / $0.p50Microseconds) } ?? "-",
                raw.map { format(row.p99Microseconds / $0.p99Microseconds) } ?? "-",
                plain.map { format(row.p50Microseconds / $0.p50Microseconds) } ?? "-",
            ]
        }
        return (one, trip)
    }

    static let oneWayHeader = ["link", "bytes", "implementation", "security", "msgs/s", "× raw", "× plain"]
    static let tripHeader = ["link", "implementation", "security", "p50 µs", "p99 µs", "p50 × raw", "p99 × raw", "p50 × plain"]

    public func text() -> String {
        let (one, trip) = rows()
        return "One-way throughput (PUSH → PULL, two processes)\n" + table(Self.oneWayHeader, one)
            + "\nRound trip (DEALER ↔ ROUTER echo, two processes, 64 B)\n" + table(Self.tripHeader, trip)
    }

    public func markdown() -> String {
        let (one, trip) = rows()
        func md(_ header: [String], _ rows: [[String]]) -> String {
            ([header, header.map { _ in "---" }] + rows).map { "| " + $0.joined(separator: " | ") + " |" }
                .joined(separator: "\n")
        }
        return md(Self.oneWayHeader, one) + "\n\n" + md(Self.tripHeader, trip)
    }

    private func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
