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
    /// Riders' optional features (Share ETA, Split Fare, the kill switch); absent when unused.
    public var features: FeatureCounts?
    /// Online drivers by where they were at their last state change.
    public var map: CoarseMap
    /// Requests and completions in each of the last minutes (oldest first, up to the current one).
    public var requestsPerMinute: [Int]?
    public var completedPerMinute: [Int]?
    /// The zones with the most requests over the run, with their surge now.
    public var busiestZones: [ZoneLoad]?
    /// The coordinator's latest notices, newest last.
    public var notices: [String]?

    public struct ZoneLoad: Codable, Sendable, Equatable {
        public var zone: String
        public var requests: Int
        public var surge: Double
    }

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
        /// Dispatch only, as its latest life reports them (a restored life's count includes what
        /// its journal kept): frames that were not messages, commands refused as forbidden, and
        /// messages dropped over a connection's rate.
        public var malformed: Int?
        public var forbidden: Int?
        public var rateLimited: Int?
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
            // Sharded: requests matched across a border (each is counted once among "requests").
            ("handed_over", .requestHandedOver),
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
        map = CoarseMap(
            positions: board.driverPositions.filter { board.drivers[$0.key] != .offline }.map(\.value), width: 56, height: 6)
        let now = board.simTimeMs / 60_000
        let shown = (max(0, now - MonitorBoard.minutesKept + 1)...now)
        requestsPerMinute = shown.map { board.minutes[$0]?.requests ?? 0 }
        completedPerMinute = shown.map { board.minutes[$0]?.completed ?? 0 }
        busiestZones = board.zoneRequests.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(4).map {
            ZoneLoad(zone: $0.key, requests: $0.value, surge: board.surge[$0.key] ?? 1)
        }
        notices = board.notices
        var features = board.features
        for (name, status) in board.processes {
            for (feature, count) in status.switchedOff { features.switchedOff[feature, default: 0] += Int(count) }
            for (feature, count) in board.earlierLives[name]?.switchedOff ?? [:] {
                features.switchedOff[feature, default: 0] += count
            }
        }
        self.features = features.isEmpty ? nil : features
        processes = Self.processes(of: board)
    }

    /// Each process's health on `board`: counters summed over its lives, memory and lag as its
    /// latest life reports them.
    public static func processes(of board: MonitorBoard) -> [String: ProcessHealth] {
        Dictionary(
            uniqueKeysWithValues: board.processes.map { name, status in
                let earlier = board.earlierLives[name] ?? EarlierLives()
                let checks = status.hasChecks ? status.checks : nil
                return (
                    name,
                    ProcessHealth(
                        lives: earlier.lives + 1, messagesIn: earlier.messagesIn + status.messagesIn,
                        messagesOut: earlier.messagesOut + status.messagesOut,
                        residentMB: Double(status.rssBytes) / 1_048_576, cpuSeconds: earlier.cpuSeconds + status.cpuSeconds,
                        lagSeconds: status.lag.seconds,
                        maxLagSeconds: SimDuration(wireMilliseconds: Int64(board.maxLagMs[name] ?? 0)).seconds,
                        malformed: checks.map { Int($0.malformed) }, forbidden: checks.map { Int($0.forbidden) },
                        rateLimited: checks.map { Int($0.rateLimited) })
                )
            })
    }

    /// A plain progress line, for pipes and logs.
    public var line: String { line(clock: nil) }

    /// The same line, its time a clock time of day (`17:05:09`) when the run's clock is known.
    public func line(clock: ClockTimeOfDay?) -> String {
        let time = clock?.format(milliseconds: Int64(simTimeSeconds * 1_000)) ?? "t=" + ClockTimeOfDay.elapsed(simTimeSeconds)
        return time
            + String(
                format:
                    "  drivers idle %d offered %d en-route %d on-trip %d  open %d  "
                    + "last min: %d req %d matched %d done %d cancelled %d rejected  "
                    + "pickup p50 %.0f s p95 %.0f s  surge %.1f (run's highest %.1f)  missed %llu",
                drivers["idle"]!, drivers["offered"]!, drivers["en_route"]!,
                drivers["on_trip"]!, openRequests, lastMinute["requests"]!, lastMinute["matched"]!, lastMinute["completed"]!,
                lastMinute["cancelled"]!, lastMinute["rejected"]!, pickupWaitP50, pickupWaitP95, surgeNow ?? 1, maxSurge,
                missedEvents)
            + processes.sorted { $0.key < $1.key }.map {
                String(
                    format: "  [%@ in %llu out %llu, %.0f MB]", $0.key, $0.value.messagesIn, $0.value.messagesOut,
                    $0.value.residentMB)
            }.joined()
    }

    /// Where and when the run's highest surge was set, or nothing if surge never rose.
    /// (With the run's clock, the time is a time of day.)
    public func peakSurgeWhere(clock: ClockTimeOfDay?) -> String {
        guard let zone = maxSurgeZone, let at = maxSurgeAtSeconds else { return "" }
        let time = clock?.format(milliseconds: Int64(at * 1_000)) ?? ClockTimeOfDay.elapsed(at) + " simulated"
        return " (\(zone) at \(time))"
    }

    /// One JSON object on one line, keys sorted, for scripts.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
