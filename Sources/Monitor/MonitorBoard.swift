import DequeModule
import RideDispatch
import Wire

/// What the monitor knows of the city, from the event bus alone: drivers and requests by state,
/// what happened in the last simulated minute, pickup waits, surge, and the sequence gaps seen.
/// A monitor that joins late applies dispatch's snapshot first, then the events after it.
public struct MonitorBoard: Sendable {
    public private(set) var drivers: [String: Wire.DriverState] = [:]
    public private(set) var openRequests: [String: TripState] = [:]
    /// Events of each kind over the whole run.
    public private(set) var totals: [DispatchEventKind: Int] = [:]
    /// Each bus sender's share of `totals` (one sender per dispatch shard): a shard's snapshot
    /// replaces its own share.
    private var totalsBySender: [String: [DispatchEventKind: Int]] = [:]
    /// The dispatch events applied lately, by sender, oldest first. A snapshot comes on another
    /// socket than the bus, current to a sequence the bus may already have passed: the events
    /// after that sequence are applied again on top of it.
    private var lately: [String: Deque<(sequence: UInt64, event: Wire.DispatchEvent)>] = [:]
    /// The sequence of the newest event each sender's ``lately`` no longer keeps.
    private var latelyDroppedThrough: [String: UInt64] = [:]
    /// How many events of each sender ``lately`` keeps (a snapshot lags the bus by a window or two).
    public static let latelyKept = 8_192
    /// Snapshot chunks collected until their last, by bus sender.
    private var snapshotParts: [String: [Wire.DispatchEvent]] = [:]
    /// The bus senders (dispatch shards) whose snapshots the board holds.
    private var snapshotsFrom: Set<String> = []
    /// What riders' optional features did (shares, splits); `switchedOff` is filled by the report.
    public private(set) var features = FeatureCounts()
    /// Pickup waits in seconds of every trip started.
    public private(set) var pickupWaits = Distribution()
    public private(set) var surge: [String: Double] = [:]
    /// The highest surge of the run so far: where and when (simulated ms) it was set.
    public private(set) var peakSurge: (multiplier: Double, zone: String, timeMs: Int64)?
    /// Where each driver was at its last state change (when dispatch knew).
    public private(set) var driverPositions: [String: LatLon] = [:]
    /// The latest health report of each process, by process id.
    public private(set) var processes: [String: ProcessStatus] = [:]
    /// What each restarted process's earlier lives did (their last reports' counters, added up):
    /// a new life's counters start again from zero.
    public private(set) var earlierLives: [String: EarlierLives] = [:]
    /// The largest lag each process reported over the run (simulated ms).
    public private(set) var maxLagMs: [String: UInt32] = [:]
    public private(set) var simTimeMs: Int64 = 0
    /// Requests and completions per simulated minute, for the last ``minutesKept`` minutes.
    public private(set) var minutes: [Int64: (requests: Int, completed: Int)] = [:]
    public static let minutesKept: Int64 = 30
    /// Requests per pickup zone over the run.
    public private(set) var zoneRequests: [String: Int] = [:]
    /// Where and when each open request was counted (its minute and zone), so that one handed
    /// over to another dispatch shard is counted once: where it ends.
    private var countedAt: [String: (minute: Int64, zone: String)] = [:]
    /// The coordinator's latest notices (processes ready, restarted, killed), newest last.
    public private(set) var notices: [String] = []
    public static let noticesKept = 5
    public private(set) var sequences = SequenceTracker()
    /// Events at or below the snapshot's sequence, already counted in it.
    public private(set) var skippedBeforeSnapshot = 0
    private var recent = Deque<(timeMs: Int64, kind: DispatchEventKind)>()
    /// Each dispatch's snapshot (one per shard), by its bus sender: its events up to the
    /// sequence were in it.
    private var snapshotAt: [String: UInt64] = [:]

    public init() {}

    /// Applies one published envelope (bus events of any sender).
    public mutating func apply(_ envelope: Envelope) {
        if let sequence = snapshotAt[envelope.sender], envelope.sequence <= sequence {
            skippedBeforeSnapshot += 1
            return
        }
        // Seen already: a restored dispatch publishes its last events again, in case they were lost.
        guard sequences.observe(sender: envelope.sender, sequence: envelope.sequence) != .duplicate else { return }
        simTimeMs = max(simTimeMs, envelope.simTimeMs)
        if case .processStatus(let status)? = envelope.body {
            if let previous = processes[status.processID], previous.pid != status.pid {
                earlierLives[status.processID, default: EarlierLives()].add(previous)
            }
            processes[status.processID] = status
            // A process's word about itself: no process is later than the run is long.
            let lag = UInt32(clamping: min(Int64(status.lagMs), max(0, envelope.simTimeMs)))
            maxLagMs[status.processID] = max(maxLagMs[status.processID] ?? 0, lag)
        }
        if case .notice(let notice)? = envelope.body {
            notices.append(notice.text)
            if notices.count > Self.noticesKept { notices.removeFirst(notices.count - Self.noticesKept) }
        }
        guard case .dispatchEvent(let event)? = envelope.body else { return }
        keepLately(event, sequence: envelope.sequence, from: envelope.sender)
        count(event, from: envelope.sender)
        features.record(event)
        let minute = envelope.simTimeMs / 60_000
        if event.kind == .requestCreated {
            minutes[minute, default: (0, 0)].requests += 1
            if !event.zone.isEmpty { zoneRequests[event.zone, default: 0] += 1 }
            countedAt[event.requestID] = (minute, event.zone)
        }
        if event.kind == .tripCompleted { minutes[minute, default: (0, 0)].completed += 1 }
        recent.append((envelope.simTimeMs, event.kind))
        dropOlderThanAMinute()
        switch event.kind {
        case .tripStarted:
            pickupWaits.add(Double(event.pickupWaitS))
        case .tripCompleted, .requestCancelled, .requestRejected:
            countedAt[event.requestID] = nil
        case .requestHandedOver:
            if let counted = countedAt.removeValue(forKey: event.requestID) {
                minutes[counted.minute, default: (0, 0)].requests -= 1
                if !counted.zone.isEmpty { zoneRequests[counted.zone, default: 0] -= 1 }
            }
        case .surgeUpdated:
            surge[event.zone] = event.surgeMultiplier
            if event.surgeMultiplier > peakSurge?.multiplier ?? 1 {
                peakSurge = (event.surgeMultiplier, event.zone, envelope.simTimeMs)
            }
        default: break
        }
    }

    /// Takes one chunk of a dispatch process's snapshot (`sender`: its bus sender, "dispatch-bus",
    /// "dispatch-1-bus"); the last chunk applies them all, and then this returns true. A sharded
    /// dispatch sends one snapshot per shard: every shard's after the first adds to the board.
    public mutating func apply(chunk: SnapshotChunk, sender: String) -> Bool {
        snapshotParts[sender, default: []] += chunk.state
        guard chunk.last else { return false }
        apply(
            snapshot: snapshotParts.removeValue(forKey: sender) ?? [], sequenceAt: chunk.sequenceAt, totals: chunk.totals,
            sender: sender, merging: snapshotsFrom.contains { $0 != sender })
        snapshotsFrom.insert(sender)
        return true
    }

    /// Replaces what is known with dispatch's snapshot, current to bus sequence `sequenceAt` of
    /// `sender`; bus events up to it are then skipped, later ones applied (those that came
    /// already are applied again on top of it). `totals`, dispatch's own count of each kind of
    /// event over the run, become `sender`'s share of the whole-run totals (what the board saw of
    /// it before is in them). With `merging`, the snapshot is one more shard's: its drivers and
    /// requests add to what the other shards' snapshots gave instead of replacing them.
    public mutating func apply(
        snapshot events: [Wire.DispatchEvent], sequenceAt: UInt64, totals: [EventCount] = [], sender: String = "dispatch-bus",
        merging: Bool = false
    ) {
        if !merging {
            drivers = [:]
            openRequests = [:]
            snapshotAt = [:]
        }
        let totalsReplaced = !totals.isEmpty
        if totalsReplaced {
            var share = Dictionary(totals.map { ($0.kind, Int(clamping: $0.count)) }, uniquingKeysWith: +)
            // As on the bus: a request handed to another shard is counted where it ends.
            share[.requestCreated, default: 0] -= share[.requestHandedOver] ?? 0
            for (kind, count) in totalsBySender[sender] ?? [:] { self.totals[kind, default: 0] -= count }
            for (kind, count) in share { self.totals[kind, default: 0] += count }
            totalsBySender[sender] = share
        }
        for event in events {
            switch event.kind {
            case .driverStateChanged: drivers[event.driverID] = event.driverState
            case .requestCreated: openRequests[event.requestID] = event.tripState
            default: break
            }
        }
        // The bus may have run ahead of the snapshot: what it told since is applied again.
        for (sequence, event) in lately[sender] ?? [] where sequence > sequenceAt {
            count(event, from: sender, totalsToo: totalsReplaced)
        }
        if let dropped = latelyDroppedThrough[sender], dropped > sequenceAt {
            // At most this many: some of them may have been missed on the bus already.
            sequences.lose(dropped - sequenceAt, from: sender)
        }
        snapshotAt[sender] = sequenceAt
        sequences.resume(sender: sender, after: sequenceAt)
    }

    /// What a snapshot stands for, moved on by one dispatch event of `sender`: the totals, the
    /// open requests and the drivers' states.
    /// (`totalsToo` false: the totals were counted already.)
    private mutating func count(_ event: Wire.DispatchEvent, from sender: String, totalsToo: Bool = true) {
        if totalsToo { add(1, event.kind, from: sender) }
        switch event.kind {
        case .requestCreated: openRequests[event.requestID] = .matching
        case .offerAccepted: openRequests[event.requestID] = .driverAssigned
        case .tripStarted: openRequests[event.requestID] = .onTrip
        case .tripCompleted, .requestCancelled, .requestRejected: openRequests[event.requestID] = nil
        case .requestHandedOver:
            // Still open; the shard it went to counts it again as it arrives.
            if totalsToo { add(-1, .requestCreated, from: sender) }
        case .driverStateChanged:
            drivers[event.driverID] = event.driverState
            if event.hasLocation { driverPositions[event.driverID] = event.location }
        default: break
        }
    }

    private mutating func add(_ count: Int, _ kind: DispatchEventKind, from sender: String) {
        totals[kind, default: 0] += count
        totalsBySender[sender, default: [:]][kind, default: 0] += count
    }

    private mutating func keepLately(_ event: Wire.DispatchEvent, sequence: UInt64, from sender: String) {
        lately[sender, default: []].append((sequence, event))
        if lately[sender]!.count > Self.latelyKept { latelyDroppedThrough[sender] = lately[sender]!.removeFirst().sequence }
    }

    /// Events of `kind` in the simulated minute before the latest event.
    public func lastMinute(_ kind: DispatchEventKind) -> Int {
        recent.reduce(0) { $0 + ($1.kind == kind && $1.timeMs > simTimeMs - 60_000 ? 1 : 0) }
    }

    /// The last minute's events, oldest first (they come in time order, near enough): dropping
    /// them as they age costs what is dropped, so the list never outgrows a minute.
    private mutating func dropOlderThanAMinute() {
        while let first = recent.first, first.timeMs <= simTimeMs - 60_000 { recent.removeFirst() }
    }

    /// Drops the per-minute counts older than the report shows (call now and then).
    public mutating func forgetOld() {
        let oldest = simTimeMs / 60_000 - Self.minutesKept
        if minutes.keys.contains(where: { $0 <= oldest }) { minutes = minutes.filter { $0.key > oldest } }
    }

    public func driverCount(_ state: Wire.DriverState) -> Int { drivers.values.count { $0 == state } }
}

/// The counters of a process's earlier lives, summed from the last report of each.
public struct EarlierLives: Sendable, Equatable {
    public private(set) var lives = 0
    public private(set) var messagesIn: UInt64 = 0
    public private(set) var messagesOut: UInt64 = 0
    public private(set) var cpuSeconds = 0.0
    /// Plugins switched off in the apps of earlier lives, by feature.
    public private(set) var switchedOff: [String: Int] = [:]

    mutating func add(_ last: ProcessStatus) {
        lives += 1
        for (feature, count) in last.switchedOff { switchedOff[feature, default: 0] += Int(count) }
        messagesIn += last.messagesIn
        messagesOut += last.messagesOut
        cpuSeconds += last.cpuSeconds
    }
}
