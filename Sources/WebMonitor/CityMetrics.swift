import Monitor
import Prometheus
import Wire

/// The run's metrics in Prometheus's text format, under conventional names: requests by
/// outcome, pickup waits (a histogram), drivers by state, open requests, simulated time, bus
/// messages missed, and each process's lag, messages, CPU, memory and restarts. Brought up to
/// date from the live city at each scrape.
///
/// Not `Sendable`: the hub's actor owns it.
final class CityMetrics {
    private let registry = PrometheusCollectorRegistry()
    private let pickupWaits: ValueHistogram
    /// Counters already exported, by metric and labels: a scrape adds only what is new.
    private var exported: [String: Double] = [:]

    /// Pickup-wait buckets, in seconds.
    static let waitBuckets: [Double] = [15, 30, 60, 120, 180, 300, 450, 600, 900, 1_200]

    init() {
        pickupWaits = registry.makeValueHistogram(
            descriptor: Self.name(
                "ribcity_pickup_wait_seconds",
                help: "Simulated seconds from a request (or its booked time) to the pickup, per trip started."),
            buckets: Self.waitBuckets)
    }

    /// The metrics as `/metrics` serves them, after taking in what `city` learned since the last scrape.
    func scrape(_ city: inout LiveCity) -> String {
        for wait in city.takeNewWaits() { pickupWaits.record(wait) }
        let board = city.board
        let report = MonitorReport(board)
        for (outcome, key) in [("completed", "completed"), ("cancelled", "cancelled"), ("rejected", "rejected")] {
            count(
                "ribcity_requests_ended_total", [("outcome", outcome)], Double(report.totals[key] ?? 0),
                help: "Requests ended, by outcome.")
        }
        count("ribcity_requests_total", [], Double(report.totals["requests"] ?? 0), help: "Requests created.")
        count("ribcity_matches_total", [], Double(report.totals["matched"] ?? 0), help: "Offers accepted by drivers.")
        count("ribcity_bus_messages_missed_total", [], Double(report.missedEvents), help: "Bus messages lost (sequence gaps).")
        for (state, name) in [
            (Wire.DriverState.idle, "idle"), (.offered, "offered"), (.enRoute, "en_route"), (.onTrip, "on_trip"),
            (.offline, "offline"),
        ] {
            gauge("ribcity_drivers", [("state", name)], Double(board.driverCount(state)), help: "Drivers by state.")
        }
        gauge("ribcity_requests_open", [], Double(report.openRequests), help: "Requests not ended yet.")
        gauge("ribcity_simulated_seconds", [], report.simTimeSeconds, help: "Simulated seconds since the run began.")
        gauge("ribcity_driver_utilisation_ratio", [], city.utilisation, help: "Online drivers busy, as a share of those online.")
        for (process, health) in report.processes {
            let labels = [("process", process)]
            gauge(
                "ribcity_process_lag_seconds", labels, health.lagSeconds,
                help: "How far behind the clock the process ran (simulated s).")
            gauge("ribcity_process_resident_bytes", labels, health.residentMB * 1_048_576, help: "Resident memory.")
            count(
                "ribcity_process_cpu_seconds_total", labels, health.cpuSeconds, help: "CPU time, over every life of the process.")
            count("ribcity_process_messages_in_total", labels, Double(health.messagesIn), help: "Messages received.")
            count("ribcity_process_messages_out_total", labels, Double(health.messagesOut), help: "Messages sent.")
            count(
                "ribcity_process_restarts_total", labels, Double(max(0, (health.lives ?? 1) - 1)),
                help: "Times the process was restarted (lives heard on the bus, less one).")
        }
        return registry.emitToString()
    }

    private func count(_ name: String, _ labels: [(String, String)], _ value: Double, help: String) {
        let key = name + labels.map { "|\($0.0)=\($0.1)" }.joined()
        let counter = registry.makeCounter(descriptor: Self.name(name, help: help), labels: labels)
        let delta = value - exported[key, default: 0]
        // Counters only rise: a total that fell (a late joiner's snapshot corrected it) waits.
        guard delta > 0 else { return }
        counter.increment(by: delta)
        exported[key] = value
    }

    private func gauge(_ name: String, _ labels: [(String, String)], _ value: Double, help: String) {
        registry.makeGauge(descriptor: Self.name(name, help: help), labels: labels).set(value)
    }

    /// A metric's whole name as it is exported (no namespace or unit added), with its help.
    private static func name(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
