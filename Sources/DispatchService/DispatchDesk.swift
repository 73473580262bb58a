import City
import RideDispatch
import SimulatedTime
import Wire

/// The dispatch process's protocol logic, without sockets or clocks: envelopes from sessions go
/// in with the simulated time, and what must be sent — replies, offers, trip updates, legs to
/// drive, bus events — comes out. Sessions say hello, heartbeat and expire; a retried request
/// (same message id) is answered again, never done twice; every engine event becomes messages.
///
/// Not `Sendable`: the dispatch server's actor owns it.
public final class DispatchDesk {
    public struct Settings: Sendable {
        public var heartbeatIntervalMs: UInt32 = 1_000
        public var sessionTimeoutMs: UInt32 = 5_000
        /// Positions farther than this from any road are refused.
        public var maxSnapMetres: Double = 500
        public var rememberedReplies = 10_000
        /// Simulated seconds per wall second. Heartbeats and session timeouts are wall time (a
        /// network matter), while the desk is told simulated time.
        public var speed: Double = 1
        /// A leg not reported done this long (simulated seconds) after its arrival time is sent
        /// to its driver again: the DriveTo may have been lost on the way.
        public var legGrace: Double = 60
        /// Which process owns each of the city's riders and drivers (the topology's split).
        public var owners: AppOwners = .firstClaim
        /// Sharded dispatch: this desk's shard and the map of who owns what; nil for the one
        /// dispatch of an unsharded city.
        public var shard: DeskShard?
        public init() {}
    }

    public let engine: DispatchEngine
    public let settings: Settings
    /// Checks dispatch's promises (one end per request, no driver double-booked, fares conserved)
    /// on every engine event, as the run goes.
    public let checker: InvariantChecker
    /// How far each driver has driven, empty and loaded (published with its state changes).
    var odometers: Odometers
    let snap: SnapIndex
    /// Positions snapped lately: a rider's request names the positions its quote did moments before.
    var snapped = GenerationalMemory<GeoPoint, (node: Int, distance: Double)>(capacity: 1_024)
    var sessions: [String: DeskSession] = [:]
    var sessionOfPeer: [[UInt8]: String] = [:]
    /// Requests and drivers by their wire names, and each request's rider.
    var requests = NameTable(RequestID.init)
    var riderOfRequest: [RequestID: String] = [:]
    var drivers = NameTable(DriverID.init)
    var riderLines: [String: RiderLine] = [:]
    var driverLines: [String: DriverLine] = [:]
    var offers = OfferBook()
    /// Shared ETAs and split fares of riders' optional features.
    var sharing = RideSharing()
    var memory: ReplyMemory
    var quotes = 0
    /// When the open legs were last looked at.
    var legsLookedAt: Double = 0
    /// When each driver's last leg may next be overdue (see ``overdueLegs(at:)``): set as a leg is
    /// sent or sent again, so that a look takes the few that fall due instead of sorting every
    /// driver's line (a tenth of dispatch's time on nyc-day).
    var legChecks = DeadlineQueue<String>()
    /// Envelopes refused as not understood (wrong version, unknown session, bad values).
    public internal(set) var refused = 0
    /// Commands the engine refused where the desk expected none (its own bookkeeping and the
    /// engine's disagree): zero in a sound run, and reported with dispatch's own checks.
    public internal(set) var unexpectedRefusals = 0
    /// Of `refused`, those refused as not the session's to do (FORBIDDEN): forgeries, or a
    /// session that lost what it acted for.
    public internal(set) var forbiddenCount = 0
    /// A `Stop` came from a session allowed to send one.
    public internal(set) var stopRequested = false
    /// Sharded: drivers this shard let go to the shard where they stood idle.
    public internal(set) var driversHandedOver = 0
    /// Sharded: matching across this shard's borders (nil for the one dispatch of an unsharded city).
    public internal(set) var border: BorderDesk?

    public init(engine: DispatchEngine, settings: Settings = Settings()) {
        self.engine = engine
        self.settings = settings
        snap = SnapIndex(graph: engine.graph)
        checker = InvariantChecker(poolCapacity: engine.configuration.poolCapacity)
        odometers = Odometers(graph: engine.graph)
        memory = ReplyMemory(capacity: settings.rememberedReplies)
        border = settings.shard.map { BorderDesk(shard: $0.index, settings: $0.border) }
    }

    public var sessionCount: Int { sessions.count }

    /// Dispatch's own checks as they stand, for its health reports.
    public var checks: DispatchChecks {
        DispatchChecks.with {
            $0.violations = UInt32(clamping: checker.violations.count)
            $0.firstViolation = checker.violations.first.map { "\($0)" } ?? ""
            $0.unexpectedRefusals = UInt32(clamping: unexpectedRefusals)
            $0.forbidden = UInt32(clamping: forbiddenCount)
        }
    }

    /// Requests dispatch has taken, over the whole run.
    public var requestCount: Int { requests.count }

    /// Dispatch came back from its journal. The sessions it knew were silent through no fault of
    /// theirs, so each gets a fresh timeout in which to say Hello again. Until it does, a session
    /// has no line: the ROUTER identities of the dead process mean nothing now (a new ROUTER may
    /// give the same identity to another process), so messages from any peer are answered
    /// "unknown session" — which makes the session say Hello — and nothing is sent to it; what it
    /// missed (its riders' last trip updates, its drivers' last legs) follows the Welcome.
    public func recover(at time: Double) {
        for (id, var session) in sessions {
            session.lastHeard = max(session.lastHeard, time)
            session.peer = nil
            sessions[id] = session
        }
        sessionOfPeer = [:]
    }

    /// Handles one envelope from the session at `peer` at simulated `time` (seconds).
    /// `authenticated` is the name the connection's CURVE key was issued to, if it proved one.
    public func receive(_ envelope: Envelope, from peer: [UInt8], authenticated: String? = nil, at time: Double) -> [Outgoing] {
        guard envelope.protocolVersion == 1 else {
            refused += 1
            return [
                error(
                    to: peer, envelope, .unsupportedVersion,
                    "protocol version \(envelope.protocolVersion); this dispatch speaks 1")
            ]
        }
        if case .shardFrame(let frame)? = envelope.body {
            return shardFrame(frame, authenticated: authenticated, at: time)
        }
        if case .hello(let hello)? = envelope.body {
            return self.hello(hello, envelope, from: peer, authenticated: authenticated, at: time)
        }
        guard let sessionID = sessionOfPeer[peer], let session = sessions[sessionID] else {
            refused += 1
            return [error(to: peer, envelope, .unknownSession, "say Hello first")]
        }
        sessions[sessionID]?.lastHeard = time
        // Without a message id a request cannot be told from its retry: it is simply done. What
        // nothing answers and nothing changes by needs no replay either (see `isReplayed`).
        let key = envelope.messageID.isEmpty || !Self.isReplayed(envelope.body) ? nil : sessionID + "/" + envelope.messageID
        if let key, let replies = memory.replies(to: key) {
            // A retry may come over a new socket (Lazy Pirate): the answer goes where it came from.
            return replies.map { reply in
                switch reply {
                case .toPeer(_, let body, let inReplyTo): .toPeer(peer: peer, body: body, inReplyTo: inReplyTo)
                case .snapshot(_, let inReplyTo): .snapshot(peer: peer, inReplyTo: inReplyTo)
                case .publish, .toShard: reply
                }
            }
        }
        var replies: [Outgoing]
        do {
            try authorize(envelope, session: session)
            replies = try handle(envelope, session: sessionID, peer: peer, at: time)
        } catch {
            // Another shard's business is not a refusal: the host asked the wrong shard, and is told which.
            if error.code != .notOwner { refused += 1 }
            if error.code == .forbidden { forbiddenCount += 1 }
            replies = [self.error(to: peer, envelope, error.code, error.reason, shard: error.shard)]
        }
        if let key { memory.remember(key, replies) }
        translate(engine.takeEvents(), into: &replies)
        return replies
    }

    /// Whether the replies to a message are remembered for its retries. Not a location report's
    /// or a heartbeat's: they have no reply and change nothing, so one handled twice is handled
    /// alike — and a fleet's reports (two thirds of what dispatch heard in a metro hour, before
    /// hosts sent an instant's reports together) pushed the replies that retries of real
    /// requests need out of the memory.
    static func isReplayed(_ body: Envelope.OneOf_Body?) -> Bool {
        switch body {
        case .locationUpdate?, .locationReports?, .heartbeat?: false
        default: true
        }
    }

    /// Advances the engine's timers to `time` and expires silent sessions.
    public func tick(at time: Double) -> [Outgoing] {
        engine.advance(to: time)
        var out = translate(engine.takeEvents())
        out += borderTick(at: time)
        translate(engine.takeEvents(), into: &out)
        for (id, session) in sessions.sorted(by: { $0.key < $1.key }) where time - session.lastHeard > silenceLimit {
            out += close(id, at: time, because: .expired)
        }
        if time - legsLookedAt >= legLookInterval {
            legsLookedAt = time
            out += overdueLegs(at: time)
        }
        return out
    }

    /// How long a session may be silent before a tick ends it (simulated seconds).
    private var silenceLimit: Double { Double(settings.sessionTimeoutMs) / 1000 * settings.speed }

    /// How often a tick looks for overdue legs (simulated seconds).
    private var legLookInterval: Double { settings.legGrace / 4 }

    /// The earliest simulated time at which ``tick(at:)`` could do anything, as things stand:
    /// the engine's next deadline, the next look at overdue legs, the first session to time out.
    /// A tick before it changes nothing and sends nothing. `nil` when every tick may matter (a
    /// shard: its border's asks and reservations run on the ticks too).
    public var nextTickDue: Double? {
        guard border == nil else { return nil }
        var due = legsLookedAt + legLookInterval
        if let deadline = engine.nextDeadline { due = min(due, deadline) }
        if let heard = sessions.values.lazy.map(\.lastHeard).min() { due = min(due, heard + silenceLimit) }
        return due
    }

    /// Where session `id` can be reached now: nil for no such session, or one without a line
    /// (dispatch recovered and it has not said Hello again: it is sent what it missed after the Welcome).
    func line(of id: String?) -> [UInt8]? {
        id.flatMap { sessions[$0]?.peer }
    }

    /// Legs still open well past their arrival time, sent to their drivers again (at most once per
    /// grace period each): a lost DriveTo would otherwise leave its trip open for good. A driver
    /// who did finish the leg reports it done again.
    func overdueLegs(at time: Double) -> [Outgoing] {
        assert(
            {
                var copy = legChecks; return overdueByScan(at: time) == overdue(in: &copy, at: time)
            }(),
            "the leg checks' queue and a scan of every driver disagree")
        var out: [Outgoing] = []
        for name in overdue(in: &legChecks, at: time) {
            guard let line = driverLines[name], let drive = line.lastLeg, let peer = self.line(of: line.session) else { continue }
            driverLines[name]?.legResent = time
            legChecks.add(time + settings.legGrace, for: name)
            out.append(.toPeer(peer: peer, body: .driveTo(drive), inReplyTo: ""))
        }
        return out
    }

    /// Whether `name`'s last leg is still the one it drives, and when it may be sent again (nil:
    /// never, the leg is over or was cancelled).
    func legCheck(of name: String) -> Double? {
        guard let line = driverLines[name], let drive = line.lastLeg, !drive.cancelled, let driver = drivers[name],
            engine.currentLeg(of: driver) == Int(drive.leg)
        else { return nil }
        return max((drive.arrival.seconds + settings.legGrace).nextUp, (line.legResent ?? -.infinity) + settings.legGrace)
    }

    /// The drivers whose leg is overdue at `time` and who can be reached, by name, taken from
    /// `checks` (changed in place: a copy of the queue would be copied whole). A leg not yet due,
    /// or whose driver has no line now, is looked at again when it may be.
    private func overdue(in checks: inout DeadlineQueue<String>, at time: Double) -> [String] {
        var overdue: [String] = []
        for name in checks.takeDue(by: time, where: { _, _ in true }) {
            guard let due = legCheck(of: name) else { continue }
            guard due <= time else {
                checks.add(due, for: name)
                continue
            }
            guard line(of: driverLines[name]?.session) != nil else {
                checks.add(time.nextUp, for: name)
                continue
            }
            overdue.append(name)
        }
        return overdue
    }

    /// The same drivers as ``overdue(in:at:)``, by a scan of every line (debug builds
    /// check the queue against it).
    private func overdueByScan(at time: Double) -> [String] {
        driverLines.keys.sorted().filter { name in
            legCheck(of: name).map { $0 <= time } == true && line(of: driverLines[name]?.session) != nil
        }
    }

    /// The current state as events that recreate it (the Clone pattern's snapshot): every
    /// driver's state and every unfinished request.
    public func snapshot() -> [Wire.DispatchEvent] {
        var state: [Wire.DispatchEvent] = engine.driverStates.map { entry in
            Wire.DispatchEvent.with {
                $0.kind = .driverStateChanged
                $0.driverID = drivers.name(of: entry.driver) ?? "\(entry.driver.rawValue)"
                $0.driverState = WireMapping.driverState(entry.state)
            }
        }
        for id in engine.unfinishedRequests {
            guard let progress = engine.progress(of: id) else { continue }
            state.append(
                Wire.DispatchEvent.with {
                    $0.kind = .requestCreated
                    $0.requestID = requests.name(of: id) ?? "\(id.rawValue)"
                    $0.riderID = riderOfRequest[id] ?? ""
                    $0.tripState = WireMapping.tripState(progress)
                    if let driver = WireMapping.driver(of: progress) { $0.driverID = drivers.name(of: driver) ?? "" }
                })
        }
        return state
    }

    // MARK: Sessions

    private func hello(
        _ hello: Hello, _ envelope: Envelope, from peer: [UInt8], authenticated: String?, at time: Double
    ) -> [Outgoing] {
        guard !hello.sessionID.isEmpty else {
            refused += 1
            return [error(to: peer, envelope, .malformed, "Hello needs a session_id")]
        }
        let principal: Principal
        do throws(DeskFailure) {
            principal = try Principal(hello, authenticated: authenticated)
            if let existing = sessions[hello.sessionID] { try checkTakeover(of: existing, by: principal, hello, from: peer) }
        } catch {
            refused += 1
            forbiddenCount += 1
            return [self.error(to: peer, envelope, error.code, error.reason)]
        }
        let welcome = Outgoing.toPeer(
            peer: peer,
            body: .welcome(
                Welcome.with {
                    $0.sessionID = hello.sessionID
                    $0.heartbeatIntervalMs = settings.heartbeatIntervalMs
                    $0.sessionTimeoutMs = settings.sessionTimeoutMs
                    $0.simTime = SimTime(seconds: time)
                }), inReplyTo: envelope.messageID)
        if var existing = sessions[hello.sessionID] {
            // A reconnect: same session, perhaps a new socket identity. Whatever was sent to the old
            // socket may be lost, so each rider's last trip update and each driver's last leg
            // follow the Welcome (apps take a repeat as a no-op).
            if let old = existing.peer { sessionOfPeer[old] = nil }
            existing.peer = peer
            existing.lastHeard = time
            sessions[hello.sessionID] = existing
            sessionOfPeer[peer] = hello.sessionID
            let updates = existing.riders.sorted().compactMap { riderLines[$0]?.lastUpdate.map(Envelope.OneOf_Body.tripUpdate) }
            let legs = existing.drivers.sorted().compactMap { driverLines[$0]?.lastLeg.map(Envelope.OneOf_Body.driveTo) }
            return [welcome] + (updates + legs).map { .toPeer(peer: peer, body: $0, inReplyTo: "") }
        }
        // A host process lives once at a time: a new session of the same process means the one
        // before is gone (it crashed and was started again), so its sessions end now, not when
        // they fall silent. Waiting was not only slow but unsafe with shards: the new life brings
        // a driver online at the shard where it stands, while the shard that gave it its trip
        // still counted it on that trip until the old session expired. A host greets every shard
        // before any app of it speaks, so each shard has let the old life go first.
        let superseded =
            principal.isHost
            ? sessions.values.filter { $0.principal == principal }.map(\.id).sorted() : []
        var ended: [Outgoing] = []
        for id in superseded { ended += close(id, at: time, because: .superseded(by: hello.sessionID)) }
        sessions[hello.sessionID] = DeskSession(
            id: hello.sessionID, principal: principal, token: [UInt8](hello.sessionToken), peer: peer, lastHeard: time)
        sessionOfPeer[peer] = hello.sessionID
        return [welcome] + ended + [
            .publish(
                topic: Topic.dispatchSession,
                event: Wire.DispatchEvent.with {
                    $0.kind = .sessionOpened
                    $0.sessionID = hello.sessionID
                })
        ]
    }

    /// A Hello for a session dispatch knows takes it over only from the same principal with the
    /// same token — or, for a session that drew no token, only on the connection it is on.
    private func checkTakeover(
        of session: DeskSession, by principal: Principal, _ hello: Hello, from peer: [UInt8]
    )
        throws(DeskFailure)
    {
        guard session.principal == principal else {
            throw forbidden("session \(session.id) belongs to \(session.principal.process)")
        }
        if session.token.isEmpty {
            guard session.peer == peer else {
                throw forbidden("session \(session.id) drew no token and is held by another connection")
            }
            return
        }
        guard Self.sameBytes(session.token, [UInt8](hello.sessionToken)) else {
            throw forbidden("session \(session.id) is another connection's: its Hello carries another token")
        }
    }

    /// Compares secrets without stopping at the first difference (no timing hint to a guesser).
    private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Ends a session: its drivers go offline (their riders are matched again), its riders' open
    /// requests are cancelled by dispatch.
    func close(_ id: String, at time: Double, because end: SessionEnd) -> [Outgoing] {
        guard let session = sessions.removeValue(forKey: id) else { return [] }
        if let peer = session.peer { sessionOfPeer[peer] = nil }
        for name in session.drivers.sorted() {
            if let driver = drivers[name] { takeOffline(driver, at: time) }
            driverLines[name]?.session = nil
        }
        let reason = end.riderReason
        for id in engine.unfinishedRequests {
            guard let rider = riderOfRequest[id], session.riders.contains(rider) else { continue }
            // A rider aboard cannot be cancelled: that trip goes on to the dropoff and ends there.
            try? engine.cancel(id, by: .dispatch, reason: reason, now: time)
        }
        for rider in session.riders { riderLines[rider]?.session = nil }
        var out = translate(engine.takeEvents())
        out.append(
            .publish(
                topic: Topic.dispatchSession,
                event: Wire.DispatchEvent.with {
                    $0.kind = end == .expired ? .sessionExpired : .sessionClosed
                    $0.sessionID = id
                    $0.reason = end.eventReason(timeoutMs: settings.sessionTimeoutMs)
                }))
        return out
    }

    /// Takes a driver offline if it is not already (its session ended, or it came back on another).
    func takeOffline(_ driver: DriverID, at time: Double) {
        guard engine.state(of: driver) != .offline else { return }
        do {
            try engine.driverOffline(driver, now: time)
        } catch {
            assertionFailure("an online driver could not go offline: \(error.reason)")
            unexpectedRefusals += 1
        }
    }

    // MARK: Errors

    func error(to peer: [UInt8], _ envelope: Envelope, _ code: ErrorCode, _ reason: String, shard: Int? = nil) -> Outgoing {
        .toPeer(
            peer: peer,
            body: .error(
                ErrorReply.with {
                    $0.code = code
                    $0.reason = reason
                    if let shard { $0.shard = UInt32(shard) }
                }), inReplyTo: envelope.messageID)
    }
}

/// Why a request could not be served, as the error reply will say.
struct DeskFailure: Error {
    let code: ErrorCode
    let reason: String
    /// With ``ErrorCode/notOwner``: the shard that owns what was asked about.
    var shard: Int?

    init(code: ErrorCode, reason: String, shard: Int? = nil) {
        self.code = code
        self.reason = reason
        self.shard = shard
    }
}
