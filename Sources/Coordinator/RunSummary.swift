import Foundation
import Monitor
import Wire

/// What a run did, written to the run directory (`summary.json`, `summary.txt`) and printed.
public struct RunSummary: Codable, Sendable {
    public var topology: String
    /// How the run ended.
    public var outcome: RunOutcome
    public var wallSeconds: Double
    public var speed: Double
    /// The KPIs and per-process message counts, from the event bus.
    public var kpis: MonitorReport
    /// Starts, restarts and exits per process.
    public var processes: [String: Supervisor.Record]
    /// Requests created, and how many ended each way; accounted when every one has ended.
    public var requests: Int
    public var ended: Int
    /// An interrupted run: the requests still open when it was interrupted, which the shutdown
    /// ended (they are not among the cancelled, whose counts are as they stood at the interruption).
    public var endedByShutdown: Int?
    /// Stress runs: the faults injected, and the verdict of the recorded run.
    public var chaos: ChaosCounts?
    /// How many rides a driver may carry at once in this run (for the verdict's capacity check).
    public var poolCapacity: Int
    public var verdict: RunVerdict?
    /// Virtual time: windows, simulated seconds per wall second, the bottleneck (absent in wall time).
    public var virtualTime: VirtualTimeReport?
    /// Seconds after midnight at which the run's simulated time began (its topology's start).
    public var startSecondOfDay: Double?
    /// Over CURVE: publications the bus refused (a process publishing what only another may),
    /// and the first few, with who sent them and why. Absent when the bus cannot tell who publishes.
    public var busRefused: Int?
    public var busRefusalExamples: [String]?
    /// What the launching process itself used: it prepares the topology, runs the bus, keeps
    /// virtual time, and records the run and its tables. Not among ``kpis``' processes, which are
    /// the city's and report themselves over the bus; absent in summaries from before it was kept.
    public var coordinator: CoordinatorUsage?
    public var allRequestsAccounted: Bool { requests == ended && kpis.openRequests == 0 && endedByShutdown == nil }
    /// A wall-clock run whose processes fell this far behind the clock (simulated seconds) has
    /// KPIs that depend on the machine and on what else ran on it.
    public static let machineDependentLag = 5.0
    /// Whether this run's KPIs depend on the machine (a wall-clock run that lagged).
    public var kpisDependOnMachine: Bool { virtualTime == nil && worstLagSeconds >= Self.machineDependentLag }
    /// The most simulated time any process fell behind the clock (its timers or its apps' wake-ups
    /// ran late by this much), at worst over the run.
    public var worstLagSeconds: Double { worstLag?.seconds ?? 0 }
    /// The process that reported the worst lag, and that lag (a process's word about itself).
    public var worstLag: (process: String, seconds: Double)? {
        kpis.processes.map { ($0.key, $0.value.maxLagSeconds) }.max { ($0.1, $1.0) < ($1.1, $0.0) }
    }

    /// - Parameter atInterruption: for an interrupted run, the board as it stood when the run
    ///   was interrupted: its request counts are the run's, and what was open then is counted as
    ///   ended by the shutdown.
    public init(
        topology: String, outcome: RunOutcome, wallSeconds: Double, speed: Double, kpis: MonitorReport,
        processes: [String: Supervisor.Record], poolCapacity: Int, atInterruption: MonitorReport? = nil
    ) {
        self.poolCapacity = poolCapacity
        self.topology = topology
        self.outcome = outcome
        self.wallSeconds = wallSeconds
        self.speed = speed
        var kpis = kpis
        if let atInterruption {
            kpis.totals = atInterruption.totals
            kpis.openRequests = 0
            endedByShutdown = atInterruption.openRequests
        }
        self.kpis = kpis
        self.processes = processes
        requests = kpis.totals["requests"] ?? 0
        ended = (kpis.totals["completed"] ?? 0) + (kpis.totals["cancelled"] ?? 0) + (kpis.totals["rejected"] ?? 0)
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }

    public var text: String {
        var lines = [
            "run \(topology): \(outcome) after \(String(format: "%.1f", wallSeconds)) s wall at \(speed)× "
                + "(simulated \(Int(kpis.simTimeSeconds)) s"
                + (startSecondOfDay.map {
                    let clock = ClockTimeOfDay(startSecondOfDay: $0)
                    return ", " + clock.format(milliseconds: 0) + " to "
                        + clock.format(milliseconds: Int64(kpis.simTimeSeconds * 1_000))
                } ?? "") + ")",
            "requests \(requests): completed \(kpis.totals["completed"] ?? 0), cancelled \(kpis.totals["cancelled"] ?? 0), "
                + "rejected \(kpis.totals["rejected"] ?? 0), "
                + ((kpis.totals["handed_over"] ?? 0) > 0
                    ? "handed to a nearer driver across a shard border \(kpis.totals["handed_over"] ?? 0), " : "")
                + (endedByShutdown.map { "\($0) still open when the run was interrupted (ended by the shutdown)" }
                    ?? "still open \(kpis.openRequests) — "
                    + (allRequestsAccounted ? "every request accounted for" : "NOT every request ended")),
            String(
                format:
                    "pickup wait p50 %.0f s, p95 %.0f s; max surge %.1f%@; bus events missed %llu; "
                    + "worst lag behind the clock %.2f s simulated%@",
                kpis.pickupWaitP50, kpis.pickupWaitP95, kpis.maxSurge,
                kpis.peakSurgeWhere(clock: startSecondOfDay.map(ClockTimeOfDay.init)), kpis.missedEvents, worstLagSeconds,
                worstLag.map { " (reported by \($0.process))" } ?? ""),
        ]
        if let features = kpis.features { lines.append(features.line) }
        if kpisDependOnMachine, let lag = worstLag {
            lines.append(
                String(
                    format: "warning: %@ fell %.1f s (simulated) behind the clock: these KPIs depend on this machine and on what "
                        + "else ran on it; a virtual-time run (--virtual) gives the same results on any machine", lag.process,
                    lag.seconds))
        }
        if let virtual = virtualTime {
            lines.append(
                String(
                    format: "virtual time: %llu windows, %.0f simulated s in %.1f wall s (%.0f× wall time); "
                        + "%.0f s jumped over idle; waited most for %@ (%.0f%% of windows)",
                    virtual.windows, virtual.simulatedSeconds, virtual.wallSeconds, virtual.rate, virtual.skippedSeconds,
                    virtual.bottleneck, virtual.bottleneckShare * 100))
            if let paced = virtual.pacedBy, !paced.isEmpty {
                let total = max(1, paced.values.reduce(0, +))
                let shares = paced.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                    String(format: "%@ %.0f%%", $0.key, Double($0.value) / Double(total) * 100)
                }
                lines.append("  windows opened by the next event of: " + shares.joined(separator: ", "))
            }
            if let satOut = virtual.satOut, !satOut.isEmpty, virtual.windows > 0 {
                let shares = satOut.sorted { $0.key < $1.key }.map {
                    String(format: "%@ %.0f%%", $0.key, Double($0.value) / Double(virtual.windows) * 100)
                }
                lines.append("  windows sat out with nothing due: " + shares.joined(separator: ", "))
            }
            if let late = virtual.lateMessages, late > 0 {
                lines.append(
                    "warning: \(late) messages were delivered after their time (a process crashed mid-window): "
                        + "this run will not replay exactly")
            }
        }
        if let busRefused, busRefused > 0 {
            lines.append(
                "bus: \(busRefused) publications refused"
                    + (busRefusalExamples?.first.map { " (first: \($0))" } ?? ""))
        }
        if !kpis.missedBySender.isEmpty {
            lines.append(
                "  bus messages missed by sender: "
                    + kpis.missedBySender.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        for name in processes.keys.sorted() {
            let record = processes[name]!
            let health =
                kpis.processes[name].map {
                    String(
                        format: ", %llu messages in, %llu out, %.1f s CPU, %.0f MB, lag ≤ %.1f s", $0.messagesIn, $0.messagesOut,
                        $0.cpuSeconds,
                        $0.residentMB, $0.maxLagSeconds)
                } ?? ""
            lines.append(
                "  \(name): \(record.restarts) restarts\(health)"
                    + (record.exits.isEmpty ? "" : "; " + record.exits.map(\.description).joined(separator: ", "))
            )
        }
        if let coordinator {
            lines.append(
                String(
                    format: "  coordinator (topology, bus, %@recording, tables): %.1f s CPU, %.0f MB at most",
                    virtualTime == nil ? "" : "window keeper, ", coordinator.cpuSeconds, coordinator.peakResidentMB))
        }
        if let chaos, chaos != ChaosCounts() {
            lines.append(
                "faults injected: \(chaos.kills.count) kills (\(chaos.kills.joined(separator: ", "))), "
                    + "\(chaos.malformedSent) malformed frames to dispatch, "
                    + "\(chaos.monitorStalls) monitor stalls, \(chaos.floodSent) flood messages on the bus"
                    + (chaos.forgedSent > 0 ? ", \(chaos.forgedSent) forged commands" : "")
                    + (chaos.forgedPublished > 0 ? ", \(chaos.forgedPublished) forged bus publications" : ""))
            if !chaos.dispatchRecoverySeconds.isEmpty {
                lines.append(
                    "dispatch recovered from its journal in "
                        + chaos.dispatchRecoverySeconds.map { String(format: "%.2f s", $0) }.joined(separator: ", ")
                        + " (kill to serving again)")
            }
        }
        if let verdict { lines.append(verdict.table) }
        return lines.joined(separator: "\n")
    }
}

/// The CPU time and memory of the process that launched and coordinated a run.
public struct CoordinatorUsage: Codable, Sendable, Hashable {
    /// CPU time, user and system, from the process's start to the end of the run (the verdict,
    /// worked out after, not counted).
    public var cpuSeconds: Double
    /// The most it was resident at any time.
    public var peakResidentMB: Double

    /// This process's usage so far.
    public static func current() -> CoordinatorUsage {
        let usage = ProcessUsage.current()
        return CoordinatorUsage(cpuSeconds: usage.cpuSeconds, peakResidentMB: Double(usage.peakResidentBytes) / 1_048_576)
    }
}
