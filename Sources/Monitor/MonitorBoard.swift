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
    /// Pickup waits in seconds of every trip started.
    public private(set) var pickupWaits = Distribution()
    public private(set) var surge: [String: Double] = [:]
    /// Where each driver was at its last state change (when dispatch knew).
    public private(set) var driverPositions: [String: LatLon] = [:]
    /// The latest health report of each process, by process id.
    public private(set) var processes: [String: ProcessStatus] = [:]
    /// The largest lag each process reported over the run (simulated ms).
    public private(set) var maxLagMs: [String: UInt32] = [:]
    public private(set) var simTimeMs: Int64 = 0
    public private(set) var sequences = SequenceTracker()
    /// Events at or below the snapshot's sequence, already counted in it.
    public private(set) var skippedBeforeSnapshot = 0
    private var recent: [(timeMs: Int64, kind: DispatchEventKind)] = []
    private var snapshotAt: (sender: String, sequence: UInt64)?

    public init() {}

    /// Applies one published envelope (bus events of any sender).
    public mutating func apply(_ envelope: Envelope) {
        if let snapshotAt, envelope.sender == snapshotAt.sender, envelope.sequence <= snapshotAt.sequence {
            skippedBeforeSnapshot += 1
            return
        }
        // Seen already: a restored dispatch publishes its last events again, in case they were lost.
        guard sequences.observe(sender: envelope.sender, sequence: envelope.sequence) != .duplicate else { return }
        simTimeMs = max(simTimeMs, envelope.simTimeMs)
        if case .processStatus(let status)? = envelope.body {
            processes[status.processID] = status
            // A process's word about itself: no process is later than the run is long.
            let lag = UInt32(clamping: min(Int64(status.lagMs), max(0, envelope.simTimeMs)))
            maxLagMs[status.processID] = max(maxLagMs[status.processID] ?? 0, lag)
        }
        guard case .dispatchEvent(let event)? = envelope.body else { return }
        totals[event.kind, default: 0] += 1
        recent.append((envelope.simTimeMs, event.kind))
        switch event.kind {
        case .requestCreated: openRequests[event.requestID] = .matching
        case .offerAccepted: openRequests[event.requestID] = .driverAssigned
        case .tripStarted:
            openRequests[event.requestID] = .onTrip
            pickupWaits.add(Double(event.pickupWaitS))
        case .tripCompleted, .requestCancelled, .requestRejected: openRequests[event.requestID] = nil
        case .driverStateChanged:
            drivers[event.driverID] = event.driverState
            if event.hasLocation { driverPositions[event.driverID] = event.location }
        case .surgeUpdated: surge[event.zone] = event.surgeMultiplier
        default: break
        }
    }

    /// Replaces what is known with dispatch's snapshot, current to bus sequence `sequenceAt` of
    /// `sender`; bus events up to it are then skipped, later ones applied.
    public mutating func apply(snapshot events: [Wire.DispatchEvent], sequenceAt: UInt64, sender: String = "dispatch-bus") {
        drivers = [:]
        openRequests = [:]
        for event in events {
            switch event.kind {
            case .driverStateChanged: drivers[event.driverID] = event.driverState
            case .requestCreated: openRequests[event.requestID] = event.tripState
            default: break
            }
        }
        snapshotAt = (sender, sequenceAt)
        sequences.resume(sender: sender, after: sequenceAt)
    }

    /// Events of `kind` in the simulated minute before the latest event.
    public func lastMinute(_ kind: DispatchEventKind) -> Int {
        recent.reduce(0) { $0 + ($1.kind == kind && $1.timeMs > simTimeMs - 60_000 ? 1 : 0) }
    }

    /// Drops what is older than a minute (call now and then; the report needs no more).
    public mutating func forgetOld() {
        recent.removeAll { $0.timeMs <= simTimeMs - 60_000 }
    }

    public func driverCount(_ state: Wire.DriverState) -> Int { drivers.values.count { $0 == state } }
}
