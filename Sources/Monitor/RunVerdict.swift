import Wire

/// One promise checked over a recorded run: whether it held, and if not, the first offender.
public struct VerdictRow: Codable, Sendable, Equatable {
    public var check: String
    public var passed: Bool
    public var detail: String

    public init(check: String, passed: Bool, detail: String) {
        self.check = check
        self.passed = passed
        self.detail = detail
    }
}

/// What a recorded run says about dispatch's promises, from the bus alone: every request ended
/// exactly once, no driver over capacity, no trip left open, fares sound, sequence numbers
/// contiguous, no leaks, malformed input survived. Rows the recording cannot know (restarts,
/// dispatch's own checks) are added by whoever ran the city.
public struct RunVerdict: Codable, Sendable, Equatable {
    public var rows: [VerdictRow]

    public var passed: Bool { rows.allSatisfy(\.passed) }

    /// Checks `recording` (the bus envelopes in arrival order). `poolCapacity` is how many rides a
    /// driver may carry at once; `malformedSent` is how many bad frames were sent to dispatch, of
    /// which `malformedMayBeLost` may have died unread with a killed dispatch.
    public init(recording: [Envelope], poolCapacity: Int, malformedSent: Int = 0, malformedMayBeLost: Int = 0) {
        var created: [String] = []
        var seen: Set<String> = []
        var endings: [String: [DispatchEventKind]] = [:]
        var load: [String: Set<String>] = [:]
        var holder: [String: String] = [:]
        var overbooked: (driver: String, requests: [String], atMs: Int64)?
        var badFare: (request: String, cents: Int64)?
        var tracker = SequenceTracker()
        var restarts: [String: Int] = [:]
        var statuses: [String: ProcessStatus] = [:]
        var splits = SplitCheck()
        for envelope in recording {
            switch tracker.observe(sender: envelope.sender, sequence: envelope.sequence) {
            case .restarted: restarts[envelope.sender, default: 0] += 1
            // Seen already (a restored dispatch publishes its last events again): counted once.
            case .duplicate: continue
            default: break
            }
            if case .processStatus(let status)? = envelope.body { statuses[status.processID] = status }
            guard case .dispatchEvent(let event)? = envelope.body else { continue }
            splits.observe(event)
            let request = event.requestID
            switch event.kind {
            case .requestCreated:
                if seen.insert(request).inserted { created.append(request) }
            case .offerAccepted:
                load[event.driverID, default: []].insert(request)
                holder[request] = event.driverID
                if let rides = load[event.driverID], rides.count > poolCapacity, overbooked == nil {
                    overbooked = (event.driverID, rides.sorted(), envelope.simTimeMs)
                }
            case .offerDeclined where holder[request] == event.driverID:
                // Taken back from the driver (they went offline, their session expired): matched again.
                load[event.driverID]?.remove(request)
                holder[request] = nil
            case .tripCompleted, .requestCancelled, .requestRejected:
                endings[request, default: []].append(event.kind)
                if let driver = holder.removeValue(forKey: request) { load[driver]?.remove(request) }
                if event.kind == .tripCompleted, event.fareCents < 0, badFare == nil { badFare = (request, event.fareCents) }
            default:
                break
            }
        }
        let twice = created.first { (endings[$0]?.count ?? 0) > 1 }
        let open = created.filter { endings[$0] == nil }
        let unknown = endings.keys.sorted().first { !seen.contains($0) }
        var rows = [
            VerdictRow(
                check: "every request ended exactly once",
                passed: twice == nil && unknown == nil,
                detail: twice.map {
                    "\($0) ended \(endings[$0]!.count) times: \(endings[$0]!.map(Self.name).joined(separator: ", "))"
                }
                    ?? unknown.map { "\($0) ended without being created" }
                    ?? "\(created.count) requests, each ended once"),
            VerdictRow(
                check: "no trip stuck", passed: open.isEmpty,
                detail: open.isEmpty ? "none open at the end" : "\(open.count) still open, first \(open[0])"),
            VerdictRow(
                check: "no driver in more trips than seats", passed: overbooked == nil,
                detail: overbooked.map { "\($0.driver) held \($0.requests.joined(separator: ", ")) at \($0.atMs / 1000) s" }
                    ?? "at most \(poolCapacity) rides per driver at once"),
            VerdictRow(
                check: "fares non-negative", passed: badFare == nil,
                detail: badFare.map { "\($0.request) completed with \($0.cents) cents" } ?? "every completed trip"),
            VerdictRow(
                check: "bus sequence numbers contiguous", passed: tracker.totalMissed == 0,
                detail: tracker.totalMissed == 0
                    ? "\(recording.count) messages from \(tracker.lastSeen.count) senders; "
                        + "restarts explained: \(restarts.values.reduce(0, +))"
                    : tracker.missed.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key) lost \($0.value)" }
                        .joined(separator: ", ")),
        ]
        let leaky = statuses.filter { $0.value.leaks > 0 }.sorted { $0.key < $1.key }.first
        rows.append(
            VerdictRow(
                check: "leak detectors at zero", passed: leaky == nil,
                detail: leaky.map { "\($0.key): \($0.value.leaks) leaks" } ?? "\(statuses.count) processes reported 0"))
        // Every dispatch process: the one, or each shard ("dispatch-K").
        let dispatches = statuses.filter { WireIDs.role(ofProcess: $0.key) == .dispatch }.sorted { $0.key < $1.key }
        rows.append(Self.dispatchChecks(dispatches.isEmpty ? [nil] : dispatches.map(\.value)))
        if let row = splits.row { rows.append(row) }
        if malformedSent > 0 {
            let counted = dispatches.reduce(0) { $0 + Int($1.value.malformed) }
            rows.append(
                VerdictRow(
                    check: "malformed input counted and survived", passed: counted >= malformedSent - malformedMayBeLost,
                    detail: "\(malformedSent) bad frames sent to dispatch, \(counted) counted"
                        + (malformedMayBeLost > 0 ? " (up to \(malformedMayBeLost) may die unread with a killed dispatch)" : "")))
        }
        self.rows = rows
    }

    /// Dispatch's own checks, from each dispatch process's last health report on the bus (a
    /// restored dispatch replays the whole run through its checker, so its last report speaks for
    /// the whole run); sharded, every shard's must hold. A nil status: one that never reported.
    static func dispatchChecks(_ statuses: [ProcessStatus?]) -> VerdictRow {
        let check = "dispatch's own checks (fares conserved, no double booking)"
        for status in statuses {
            let name = status.map { $0.processID.isEmpty ? "dispatch" : $0.processID } ?? "dispatch"
            let which = statuses.count > 1 ? name + ": " : ""
            guard let status, status.hasChecks else {
                return VerdictRow(check: check, passed: false, detail: "\(name) did not report its checks on the bus")
            }
            let checks = status.checks
            if checks.violations > 0 {
                return VerdictRow(
                    check: check, passed: false, detail: "\(which)\(checks.violations) broken, first: \(checks.firstViolation)")
            }
            if checks.unexpectedRefusals > 0 {
                return VerdictRow(
                    check: check, passed: false,
                    detail: "\(which)\(checks.unexpectedRefusals) engine refusals dispatch did not expect")
            }
        }
        return VerdictRow(
            check: check, passed: true, detail: statuses.count > 1 ? "held in all \(statuses.count) shards" : "held")
    }

    /// Adds a row (restarts, the run's outcome).
    public mutating func add(_ row: VerdictRow) {
        rows.append(row)
    }

    /// The verdict as a table for the terminal.
    public var table: String {
        let width = max(10, rows.map(\.check.count).max() ?? 10)
        let lines = rows.map { row in
            (row.passed ? "PASS  " : "FAIL  ") + row.check.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + row.detail
        }
        return (["verdict: " + (passed ? "every check passed" : "\(rows.filter { !$0.passed }.count) check(s) FAILED")] + lines)
            .joined(separator: "\n")
    }

    static func name(_ kind: DispatchEventKind) -> String {
        switch kind {
        case .tripCompleted: "completed"
        case .requestCancelled: "cancelled"
        case .requestRejected: "rejected"
        default: "\(kind)"
        }
    }
}

/// The split-fare row of the verdict: each split's shares sum to the trip's fare as completed,
/// each payer is charged once, and no fare is split twice.
struct SplitCheck {
    private var fares: [String: Int64] = [:]
    private var split: Set<String> = []
    private var invited = 0
    private var first: String?

    mutating func observe(_ event: Wire.DispatchEvent) {
        switch event.kind {
        case .tripCompleted: fares[event.requestID] = event.fareCents
        case .splitInvited: invited += event.contacts.count
        case .fareSplit:
            let request = event.requestID
            let total = event.shares.reduce(0) { $0 + $1.cents }
            let payers = event.shares.map(\.riderID)
            if !split.insert(request).inserted {
                fail("\(request)'s fare was split twice")
            } else if total != event.fareCents {
                fail("\(request)'s shares sum to \(total) cents, its fare is \(event.fareCents)")
            } else if let fare = fares[request], fare != event.fareCents {
                fail("\(request) was split as \(event.fareCents) cents but completed at \(fare)")
            } else if fares[request] == nil {
                fail("\(request)'s fare was split before its trip completed")
            } else if Set(payers).count != payers.count {
                fail("\(request)'s split charges a rider twice")
            } else if event.shares.contains(where: { $0.cents < 0 }) {
                fail("\(request)'s split has a negative share")
            }
        default: break
        }
    }

    private mutating func fail(_ reason: String) {
        if first == nil { first = reason }
    }

    /// The row, for a run in which fares were offered to split (none otherwise).
    var row: VerdictRow? {
        guard invited > 0 || !split.isEmpty else { return nil }
        return VerdictRow(
            check: "split fares sum to the fare, each payer once", passed: first == nil,
            detail: first ?? "\(split.count) fares split, \(invited) riders invited")
    }
}
