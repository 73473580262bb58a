import DequeModule
import Monitor
import RideDispatch
import SimulatedTime
import Wire

/// What the web page shows of the city, from the bus alone, and what changed when: bus envelopes
/// go in, frames for pages come out (each page asks for what changed since its last frame, so a
/// slow page simply gets bigger, rarer frames and nothing is queued for it). No sockets, no
/// clocks: tested envelope by envelope.
public struct LiveCity: Sendable {
    /// The monitor's board: totals, drivers, surge, processes' health, sequence gaps.
    public private(set) var board = MonitorBoard()
    /// Bumped by every envelope that changes what a page shows.
    public private(set) var version: UInt64 = 0
    private var driverLog = ChangeLog<String>()
    /// Requests whose waiting for a car began or ended.
    private var requestLog = ChangeLog<String>()
    private var driverCounts: [Wire.DriverState: Int] = [:]
    /// The leg each driver drives, until it arrives, stops or goes offline, and when each changed.
    private var legs: [String: LiveFrame.Leg] = [:]
    private var legLog = ChangeLog<String>()
    private var pickups: [String: LatLon] = [:]
    private var minutes: [Int64: MinuteStats] = [:]
    private var minuteChanged: [Int64: UInt64] = [:]
    private var flashes = Deque<(version: UInt64, item: LiveFrame.Flash)>()
    private var notices = Deque<(version: UInt64, item: LiveFrame.NoticeRow)>()
    /// Every pickup wait of the run, counted by whole second (what the bus gives).
    private var waits = SecondCounts()
    /// Pickup waits heard since the metrics last took them.
    private var newWaits: [Double] = []
    /// The run's summary (`summary.json`), once the run has ended.
    public private(set) var summary: String?
    /// How many pickups and drop-offs, and notices, are kept for pages that fall behind.
    static let kept = 4_096
    private struct SharedPart {
        var simSeconds: Double
        var kpis: LiveFrame.Totals
        var processes: [LiveFrame.ProcessRow]
        var surge: [String: Double]
    }

    private struct MinuteStats {
        var row: LiveFrame.MinuteRow
        var waits = Distribution()
    }

    public init() {}

    /// Applies one bus envelope.
    public mutating func apply(_ envelope: Envelope) {
        let before = board.sequences.lastSeen[envelope.sender]
        var changing: (driver: String, was: Wire.DriverState?)?
        // A request handed across a shard border is created again at its new shard while the
        // board still has it open: counted once, in the minute its rider asked.
        var createdAgain = false
        if case .dispatchEvent(let event)? = envelope.body {
            if event.kind == .driverStateChanged { changing = (event.driverID, board.drivers[event.driverID]) }
            createdAgain = event.kind == .requestCreated && board.openRequests[event.requestID] != nil
        }
        board.apply(envelope)
        // A repeat (a restored dispatch publishes its last events again) changes nothing.
        guard board.sequences.lastSeen[envelope.sender] != before || envelope.sequence == 0 else { return }
        version += 1
        let minute = envelope.simTimeMs / 60_000
        if case .notice(let notice)? = envelope.body {
            notices.append((version, .init(simSeconds: SimTime(wireMilliseconds: envelope.simTimeMs).seconds, text: notice.text)))
            if notices.count > Self.kept { notices.removeFirst() }
        }
        guard case .dispatchEvent(let event)? = envelope.body else { return }
        if !event.requestID.isEmpty { requestLog.record(event.requestID, at: version) }
        switch event.kind {
        case .requestCreated:
            if event.hasLocation { pickups[event.requestID] = event.location }
            if !createdAgain { touch(minute) { $0.row.requests += 1 } }
        case .offerAccepted:
            touch(minute) { $0.row.matched += 1 }
        case .tripStarted:
            let wait = Double(event.pickupWaitS)
            newWaits.append(wait)
            waits.add(event.pickupWaitS)
            touch(minute) { $0.waits.add(wait) }
            if let pickup = pickups.removeValue(forKey: event.requestID) { flash("pickup", pickup) }
        case .tripCompleted:
            touch(minute) { $0.row.completed += 1 }
            if event.hasLocation { flash("dropoff", event.location) }
            pickups[event.requestID] = nil
        case .requestCancelled:
            touch(minute) { $0.row.cancelled += 1 }
            pickups[event.requestID] = nil
        case .requestRejected:
            pickups[event.requestID] = nil
        case .legStarted:
            legs[event.driverID] = LiveFrame.Leg(
                id: event.driverID, nodes: event.routeNodes, depart: SimTime(wireMilliseconds: event.departAtMs).seconds,
                arrive: SimTime(wireMilliseconds: event.arriveAtMs).seconds)
            legLog.record(event.driverID, at: version)
        case .legStopped:
            legs[event.driverID] = nil
            legLog.record(event.driverID, at: version)
        case .driverStateChanged:
            // Where the driver is now is where the event says, once its leg is over.
            if let leg = legs[event.driverID],
                event.driverState == .offline || leg.arrive <= SimTime(wireMilliseconds: envelope.simTimeMs).seconds
            {
                legs[event.driverID] = nil
                legLog.record(event.driverID, at: version)
            }
            driverLog.record(event.driverID, at: version)
            // Counted as they change: thousands of drivers, and a state change every few seconds each.
            if let changing {
                if let was = changing.was { driverCounts[was, default: 1] -= 1 }
                if let now = board.drivers[changing.driver] { driverCounts[now, default: 0] += 1 }
            }
            let utilisation = self.utilisation
            touch(minute) { $0.row.utilisation = utilisation }
        case .surgeUpdated:
            touch(minute) { $0.row.maxSurge = max($0.row.maxSurge, event.surgeMultiplier) }
        default:
            break
        }
    }

    /// Takes a chunk of a dispatch process's snapshot (a page's server that joined late; `sender`
    /// its bus sender); the last one applies them all.
    public mutating func apply(chunk: SnapshotChunk, sender: String = "dispatch-bus") {
        guard board.apply(chunk: chunk, sender: sender) else { return }
        version += 1
        for driver in board.drivers.keys { driverLog.record(driver, at: version) }
        for request in board.openRequests.keys { requestLog.record(request, at: version) }
        driverCounts = Dictionary(grouping: board.drivers.values, by: { $0 }).mapValues(\.count)
    }

    /// The run has ended: its summary goes to every page.
    public mutating func finish(summary: String) {
        self.summary = summary
        version += 1
    }

    /// Pickup waits heard since the last call (for the metrics' histogram).
    public mutating func takeNewWaits() -> [Double] {
        defer { newWaits = [] }
        return newWaits
    }

    /// Online drivers busy (offered, en route, on a trip) as a share of those online.
    public var utilisation: Double {
        let busy = (driverCounts[.offered] ?? 0) + (driverCounts[.enRoute] ?? 0) + (driverCounts[.onTrip] ?? 0)
        let online = busy + (driverCounts[.idle] ?? 0)
        return online == 0 ? 0 : Double(busy) / Double(online)
    }

    /// What changed since `since` (the version of the page's last frame), or everything when
    /// `since` is 0 or older than what is kept.
    public func frame(since: UInt64) -> LiveFrame {
        let oldestKept = min(flashes.first?.version ?? version, notices.first?.version ?? version)
        let full = since == 0 || (since < oldestKept && (flashes.count >= Self.kept || notices.count >= Self.kept))
        let part = sharedPart()
        let driverIDs = full ? Array(board.drivers.keys) : driverLog.changed(since: since)
        let drivers = driverIDs.compactMap { id -> LiveFrame.DriverDot? in
            guard let state = board.drivers[id] else { return nil }
            let here = board.driverPositions[id]
            return LiveFrame.DriverDot(id: id, lat: here?.lat ?? 0, lon: here?.lon ?? 0, state: state.rawValue)
        }
        var legsGiven: [LiveFrame.Leg] = []
        var legsEnded: [String] = []
        for id in full ? Array(legs.keys) : legLog.changed(since: since) {
            if let leg = legs[id] { legsGiven.append(leg) } else if !full { legsEnded.append(id) }
        }
        var waiting: [LiveFrame.RequestDot] = []
        var waitingEnded: [String] = []
        for id in full ? Array(board.openRequests.keys) : requestLog.changed(since: since) {
            if board.openRequests[id] == .matching, let at = pickups[id] {
                waiting.append(LiveFrame.RequestDot(id: id, lat: at.lat, lon: at.lon))
            } else if !full {
                waitingEnded.append(id)
            }
        }
        let minuteRows = minutes.keys.sorted().compactMap { minute -> LiveFrame.MinuteRow? in
            guard full || (minuteChanged[minute] ?? 0) > since, let stats = minutes[minute] else { return nil }
            var row = stats.row
            row.pickupWaitP50 = stats.waits.percentile(0.5)
            row.pickupWaitP95 = stats.waits.percentile(0.95)
            return row
        }
        return LiveFrame(
            version: version, full: full, simSeconds: part.simSeconds,
            drivers: drivers.sorted { $0.id < $1.id }, legs: legsGiven.sorted { $0.id < $1.id }, legsEnded: legsEnded.sorted(),
            waiting: waiting.sorted { $0.id < $1.id },
            waitingEnded: waitingEnded.sorted(),
            flashes: full ? [] : Self.after(since, flashes).map(\.item),
            surge: part.surge, kpis: part.kpis, minutes: minuteRows, processes: part.processes,
            // `map`, not `Array(notices)`: Deque's copy into an array writes the standard
            // library's shared empty storage when there is nothing to copy (ThreadSanitizer).
            notices: full ? notices.map(\.item) : Self.after(since, notices).map(\.item), summary: summary)
    }

    /// The totals, processes and surge now (every frame has them whole).
    private func sharedPart() -> SharedPart {
        var kpis = LiveFrame.Totals()
        kpis.requests = board.totals[.requestCreated] ?? 0
        kpis.matched = board.totals[.offerAccepted] ?? 0
        kpis.completed = board.totals[.tripCompleted] ?? 0
        kpis.cancelled = board.totals[.requestCancelled] ?? 0
        kpis.rejected = board.totals[.requestRejected] ?? 0
        kpis.open = board.openRequests.count
        kpis.pickupWaitP50 = waits.percentile(0.5)
        kpis.pickupWaitP95 = waits.percentile(0.95)
        kpis.utilisation = utilisation
        kpis.maxSurge = board.peakSurge?.multiplier ?? 1
        kpis.missedEvents = board.sequences.totalMissed
        let processes = MonitorReport.processes(of: board).sorted { $0.key < $1.key }.map { name, health in
            LiveFrame.ProcessRow(
                name: name, lives: health.lives ?? 1, lagSeconds: health.lagSeconds, cpuSeconds: health.cpuSeconds,
                residentMB: health.residentMB, messagesIn: health.messagesIn, messagesOut: health.messagesOut)
        }
        return SharedPart(
            simSeconds: SimTime(wireMilliseconds: board.simTimeMs).seconds, kpis: kpis, processes: processes,
            surge: board.surge.filter { $0.value > 1 })
    }

    /// The entries of `log` (in version order) after version `since`, looked for from the newest.
    private static func after<Entry>(
        _ since: UInt64, _ log: Deque<(version: UInt64, item: Entry)>
    ) -> [(version: UInt64, item: Entry)] {
        Array(log.reversed().prefix { $0.version > since }.reversed())
    }

    private mutating func touch(_ minute: Int64, _ change: (inout MinuteStats) -> Void) {
        var stats = minutes[minute] ?? MinuteStats(row: LiveFrame.MinuteRow(minute: minute))
        change(&stats)
        minutes[minute] = stats
        minuteChanged[minute] = version
    }

    private mutating func flash(_ kind: String, _ at: LatLon) {
        flashes.append((version, .init(kind: kind, lat: at.lat, lon: at.lon)))
        if flashes.count > Self.kept { flashes.removeFirst() }
    }
}
