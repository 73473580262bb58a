import Foundation

/// What the dashboard knows beyond the bus: the run's name, clock, length and directory, and
/// how fast simulated time has gone so far.
public struct DashboardContext: Sendable {
    public var name = ""
    /// The run's clock, for times of day (nil: times since the run began).
    public var clock: ClockTimeOfDay?
    public var durationSeconds: Double?
    public var runDirectory: String?
    /// Simulated seconds per wall second so far, for the time left.
    public var simulatedPerWallSecond: Double?

    public init(
        name: String = "", clock: ClockTimeOfDay? = nil, durationSeconds: Double? = nil, runDirectory: String? = nil,
        simulatedPerWallSecond: Double? = nil
    ) {
        self.name = name
        self.clock = clock
        self.durationSeconds = durationSeconds
        self.runDirectory = runDirectory
        self.simulatedPerWallSecond = simulatedPerWallSecond
    }
}

extension MonitorReport {
    /// The terminal's screenful, redrawn each interval: at most 24 lines of at most 80 columns.
    public func dashboard(_ context: DashboardContext = DashboardContext()) -> String {
        var lines = [title(context)]
        if let directory = context.runDirectory { lines.append(fit("run directory: " + directory)) }
        lines += driverLines()
        if !map.rows.isEmpty {
            let scale = map.cellMetres.map { String(format: "; a cell ≈ %.0f × %.0f m", $0[0], $0[1]) } ?? ""
            lines.append(fit("online drivers, north up (1–9 in a cell, # ten or more\(scale))"))
            lines += map.rows.map { "  " + $0 }
        }
        lines += requestLines()
        lines.append(String(format: "pickup wait p50 %.0f s, p95 %.0f s", pickupWaitP50, pickupWaitP95))
        lines.append(
            fit(
                String(format: "surge now %.1f×; the run's highest %.1f×", surgeNow ?? 1, maxSurge)
                    + peakSurgeWhere(clock: context.clock)))
        if let zones = busiestZones, !zones.isEmpty {
            lines.append(
                fit(
                    "busiest zones: "
                        + zones.map { String(format: "%@ %d req %.1f×", $0.zone, $0.requests, $0.surge) }.joined(separator: ", "))
            )
        }
        if let features { lines.append(fit(features.line)) }
        lines.append(fit("processes: " + processSummary()))
        lines.append(missedEvents == 0 ? "bus: no messages missed" : "bus: \(missedEvents) messages MISSED (sequence gaps)")
        let room = max(0, 24 - lines.count - 1)
        if let notices, !notices.isEmpty, room > 0 {
            lines.append("events:")
            lines += notices.suffix(room).map { fit("  " + $0) }
        }
        return lines.prefix(24).joined(separator: "\n")
    }

    private func title(_ context: DashboardContext) -> String {
        let now =
            context.clock?.format(milliseconds: Int64(simTimeSeconds * 1_000)) ?? "simulated time "
            + ClockTimeOfDay.elapsed(simTimeSeconds)
        var text = "ribcity monitor" + (context.name.isEmpty ? "" : " — \(context.name)") + " — \(now)"
        if let duration = context.durationSeconds, duration > 0 {
            text += String(format: "  %.0f %% of %@", min(100, simTimeSeconds / duration * 100), ClockTimeOfDay.elapsed(duration))
            if let rate = context.simulatedPerWallSecond, rate > 0, simTimeSeconds < duration {
                text += ", about " + Self.wall((duration - simTimeSeconds) / rate) + " left"
            }
        }
        return fit(text)
    }

    private func driverLines() -> [String] {
        let states = [
            ("idle", "idle", "·"), ("offered", "offered", "o"), ("to pickup", "en_route", ">"), ("on trip", "on_trip", "█"),
        ]
        let online = states.reduce(0) { $0 + (drivers[$1.1] ?? 0) }
        let counts = states.map { "\($0.2)\($0.0) \(drivers[$0.1] ?? 0)" }.joined(separator: "  ")
        var bar = ""
        for (_, key, mark) in states where online > 0 {
            bar += String(repeating: mark, count: Int((Double(drivers[key] ?? 0) / Double(online) * 76).rounded()))
        }
        let summary = fit("drivers \(online) online (\(drivers["offline"] ?? 0) off)  " + counts)
        return online > 0 ? [summary, "  " + String(bar.prefix(76))] : [summary]
    }

    private func requestLines() -> [String] {
        let keys = ["requests", "matched", "completed", "cancelled", "rejected"]
        func row(_ values: [String: Int]) -> String { keys.map { String(format: "%6d", values[$0] ?? 0) }.joined() }
        var lines = [
            "requests open \(openRequests)" + String(repeating: " ", count: max(1, 14 - "\(openRequests)".count))
                + "   req  match   done cancel reject",
            "  last minute              " + row(lastMinute),
            "  whole run                " + row(totals),
        ]
        if let across = totals["handed_over"], across > 0 {
            // Sharded dispatch: requests handed to a nearer driver across a shard border.
            lines.append(
                "  across a shard border    " + String(format: "%6d", across) + " whole run, "
                    + "\(lastMinute["handed_over"] ?? 0) last minute")
        }
        if let requests = requestsPerMinute, let completed = completedPerMinute, !requests.isEmpty {
            lines.append("  per minute, requests     " + Self.sparkline(requests))
            lines.append("              completed    " + Self.sparkline(completed))
        }
        return lines
    }

    private func processSummary() -> String {
        processes.sorted { $0.key < $1.key }.map { name, health in
            String(format: "%@ %.0f MB", name, health.residentMB)
                + (health.lagSeconds >= 0.5 ? String(format: " %.1f s late", health.lagSeconds) : "")
                + ((health.lives ?? 1) > 1 ? " (\(health.lives!) lives)" : "")
        }.joined(separator: " · ")
    }

    /// Values as a row of block characters, highest the tallest.
    static func sparkline(_ values: [Int]) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        let top = values.max() ?? 0
        return String(values.map { $0 == 0 ? " " : blocks[min(7, $0 * 8 / (top + 1))] }) + "  (max \(top))"
    }

    static func wall(_ seconds: Double) -> String {
        seconds >= 60 ? "\(Int(seconds) / 60) min \(Int(seconds) % 60) s" : "\(Int(seconds.rounded(.up))) s"
    }

    private func fit(_ line: String) -> String { line.count <= 80 ? line : String(line.prefix(79)) + "…" }
}
