import Foundation
import SimulatedTime
import Wire

/// One interval's summary of the board: what the monitor prints, as a line or as JSON.
public struct MonitorReport: Codable, Sendable, Equatable {
    public var simTimeSeconds: Double
    public var drivers: [String: Int]
    public var openRequests: Int
    public var lastMinute: [String: Int]
    public var totals: [String: Int]
    public var pickupWaitP50: Double
    public var pickupWaitP95: Double
    /// The highest surge of the run, and where and when (simulated seconds) it was set.
    public var maxSurge: Double
    public var maxSurgeZone: String?
    public var maxSurgeAtSeconds: Double?
    /// The highest surge in force now.
    public var surgeNow: Double?
    public var missedEvents: UInt64
    /// Bus messages missed, by sender (only senders that lost any).
    public var missedBySender: [String: UInt64]
    /// Per process: messages in and out so far, and resident memory in MB.
    public var processes: [String: ProcessHealth]
    /// Online drivers by where they were at their last state change.
    public var map: CoarseMap

    /// A process's health: its counters summed over its lives (a restarted process's new life
    /// counts from zero), its memory and lag as its latest life reports them.
    public struct ProcessHealth: Codable, Sendable, Equatable {
        /// How many lives reported (1 unless it was restarted).
        public var lives: Int?
        public var messagesIn: UInt64
        public var messagesOut: UInt64
        public var residentMB: Double
        public var cpuSeconds: Double
        /// How far behind the clock it was at its last report, and at worst over the run (simulated s).
        public var lagSeconds: Double
        public var maxLagSeconds: Double
    }

    public init(_ board: MonitorBoard) {
        simTimeSeconds = SimTime(wireMilliseconds: board.simTimeMs).seconds
        drivers = [
            "idle": board.driverCount(.idle), "offered": board.driverCount(.offered), "en_route": board.driverCount(.enRoute),
            "on_trip": board.driverCount(.onTrip), "offline": board.driverCount(.offline),
        ]
        openRequests = board.openRequests.count
        let kinds: [(String, DispatchEventKind)] = [
            ("requests", .requestCreated), ("matched", .offerAccepted), ("completed", .tripCompleted),
            ("cancelled", .requestCancelled), ("rejected", .requestRejected),
        ]
        lastMinute = Dictionary(uniqueKeysWithValues: kinds.map { ($0.0, board.lastMinute($0.1)) })
        totals = Dictionary(uniqueKeysWithValues: kinds.map { ($0.0, board.totals[$0.1] ?? 0) })
        pickupWaitP50 = board.pickupWaits.percentile(0.5)
        pickupWaitP95 = board.pickupWaits.percentile(0.95)
        maxSurge = board.peakSurge?.multiplier ?? 1
        maxSurgeZone = board.peakSurge?.zone
        maxSurgeAtSeconds = board.peakSurge.map { SimTime(wireMilliseconds: $0.timeMs).seconds }
        surgeNow = board.surge.values.max() ?? 1
        missedEvents = board.sequences.totalMissed
        missedBySender = board.sequences.missed.filter { $0.value > 0 }
        map = CoarseMap(positions: board.driverPositions.filter { board.drivers[$0.key] != .offline }.map(\.value))
        processes = Dictionary(
            uniqueKeysWithValues: board.processes.map { name, status in
                let earlier = board.earlierLives[name] ?? EarlierLives()
                return (
                    name,
                    ProcessHealth(
                        lives: earlier.lives + 1, messagesIn: earlier.messagesIn + status.messagesIn,
                        messagesOut: earlier.messagesOut + status.messagesOut,
                        residentMB: Double(status.rssBytes) / 1_048_576, cpuSeconds: earlier.cpuSeconds + status.cpuSeconds,
                        lagSeconds: status.lag.seconds,
                        maxLagSeconds: SimDuration(wireMilliseconds: Int64(board.maxLagMs[name] ?? 0)).seconds)
                )
            })
    }

    /// A plain progress line, for pipes and logs.
    public var line: String {
        let seconds = Int(simTimeSeconds)
        return String(
            format:
                "t=%02d:%02d:%02d  drivers idle %d offered %d en-route %d on-trip %d  open %d  "
                + "last min: %d req %d matched %d done %d cancelled %d rejected  "
                + "pickup p50 %.0f s p95 %.0f s  surge %.1f (run's highest %.1f)  missed %llu",
            seconds / 3_600, seconds / 60 % 60, seconds % 60, drivers["idle"]!, drivers["offered"]!, drivers["en_route"]!,
            drivers["on_trip"]!, openRequests, lastMinute["requests"]!, lastMinute["matched"]!, lastMinute["completed"]!,
            lastMinute["cancelled"]!, lastMinute["rejected"]!, pickupWaitP50, pickupWaitP95, surgeNow ?? 1, maxSurge,
            missedEvents)
            + processes.sorted { $0.key < $1.key }.map {
                String(
                    format: "  [%@ in %llu out %llu, %.0f MB]", $0.key, $0.value.messagesIn, $0.value.messagesOut,
                    $0.value.residentMB)
            }.joined()
    }

    /// A screenful for a terminal, redrawn each interval.
    public var dashboard: String {
        let seconds = Int(simTimeSeconds)
        func bar(_ count: Int, of total: Int) -> String {
            let width = total > 0 ? Int((Double(count) / Double(total) * 30).rounded()) : 0
            return String(repeating: "█", count: width) + String(repeating: "·", count: 30 - width)
        }
        let online = ["idle", "offered", "en_route", "on_trip"].reduce(0) { $0 + drivers[$1]! }
        var lines = [
            String(format: "ribcity monitor — simulated time %02d:%02d:%02d", seconds / 3_600, seconds / 60 % 60, seconds % 60),
            "",
            "drivers online \(online), offline \(drivers["offline"]!)",
        ]
        for (label, key) in [("idle", "idle"), ("offered", "offered"), ("to pickup", "en_route"), ("on trip", "on_trip")] {
            lines.append(
                "  " + label.padding(toLength: 10, withPad: " ", startingAt: 0) + bar(drivers[key]!, of: online)
                    + String(format: " %6d", drivers[key]!))
        }
        if !map.rows.isEmpty {
            lines += ["", "where the online drivers are (north up)"] + map.rows.map { "  " + $0 }
        }
        lines += [
            "",
            "requests open \(openRequests)",
            "                 last minute      whole run",
        ]
        for key in ["requests", "matched", "completed", "cancelled", "rejected"] {
            lines.append(
                "  " + key.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(format: "%12d %14d", lastMinute[key]!, totals[key]!))
        }
        lines += [
            "",
            String(format: "pickup wait p50 %.0f s, p95 %.0f s", pickupWaitP50, pickupWaitP95),
            String(format: "surge now %.1f×; the run's highest %.1f×", surgeNow ?? 1, maxSurge) + peakSurgeWhere,
            missedEvents == 0 ? "bus: no messages missed" : "bus: \(missedEvents) messages MISSED (sequence gaps)",
            "",
            "processes",
        ]
        for (name, health) in processes.sorted(by: { $0.key < $1.key }) {
            lines.append(
                String(
                    format: "  %@ in %llu, out %llu, %.0f MB, %.1f s CPU, %.1f s behind the clock", name, health.messagesIn,
                    health.messagesOut, health.residentMB, health.cpuSeconds, health.lagSeconds))
        }
        return lines.joined(separator: "\n")
    }

    /// Where and when the run's highest surge was set, or nothing if surge never rose.
    public var peakSurgeWhere: String {
        guard let zone = maxSurgeZone, let at = maxSurgeAtSeconds else { return "" }
        let seconds = Int(at)
        return String(format: " (zone %@ at %02d:%02d:%02d simulated)", zone, seconds / 3_600, seconds / 60 % 60, seconds % 60)
    }

    /// One JSON object on one line, keys sorted, for scripts.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
