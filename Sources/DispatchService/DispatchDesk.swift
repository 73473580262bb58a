import City
import RideDispatch
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
        public init() {}
    }

    public let engine: DispatchEngine
    public let settings: Settings
    /// Checks dispatch's promises (one end per request, no driver double-booked, fares conserved)
    /// on every engine event, as the run goes.
    public let checker: InvariantChecker
    let snap: SnapIndex
    var sessions: [String: DeskSession] = [:]
    var sessionOfPeer: [[UInt8]: String] = [:]
    var requestIDs: [String: RequestID] = [:]
    var requestNames: [RequestID: String] = [:]
    var riderOfRequest: [RequestID: String] = [:]
    var driverIDs: [String: DriverID] = [:]
    var driverNames: [DriverID: String] = [:]
    var sessionOfRider: [String: String] = [:]
    var sessionOfDriver: [String: String] = [:]
    var offers: [String: (request: RequestID, driver: DriverID)] = [:]
    /// The last trip update for each rider and the last leg message for each driver: sent again
    /// when their session comes back on a new socket, since what went to the old one is lost.
    var lastToRider: [String: TripUpdate] = [:]
    var lastLegTo: [String: Envelope.OneOf_Body] = [:]
    /// Where each driver last said it was (online, location updates), for the bus's map.
    var lastLocation: [String: LatLon] = [:]
    var memory: ReplyMemory
    var quotes = 0
    /// When each driver's open leg was last sent again, and when the legs were last looked at.
    var legResent: [String: Double] = [:]
    var legsLookedAt: Double = 0
    /// Envelopes refused as not understood (wrong version, unknown session, bad values).
    public private(set) var refused = 0

    public init(engine: DispatchEngine, settings: Settings = Settings()) {
        self.engine = engine
        self.settings = settings
        snap = SnapIndex(graph: engine.graph)
        checker = InvariantChecker(poolCapacity: engine.configuration.poolCapacity)
        memory = ReplyMemory(capacity: settings.rememberedReplies)
    }

    public var sessionCount: Int { sessions.count }

    /// Requests dispatch has taken, over the whole run.
    public var requestCount: Int { requestIDs.count }

    /// Dispatch came back from its journal. The sessions it knew were silent through no fault of
    /// theirs, so each gets a fresh timeout in which to say Hello again. Until it does, a session
    /// has no line: the ROUTER identities of the dead process mean nothing now (a new ROUTER may
    /// give the same identity to another process), so messages from any peer are answered
    /// "unknown session" — which makes the session say Hello — and nothing is sent to it; what it
    /// missed (its riders' last trip updates, its drivers' last legs) follows the Welcome.
    public func recover(at time: Double) {
        for id in sessions.keys {
            sessions[id]!.lastHeard = max(sessions[id]!.lastHeard, time)
            sessions[id]!.peer = []
        }
        sessionOfPeer = [:]
    }

    /// Handles one envelope from the session at `peer` at simulated `time` (seconds).
    public func receive(_ envelope: Envelope, from peer: [UInt8], at time: Double) -> [Outgoing] {
        guard envelope.protocolVersion == 1 else {
            refused += 1
            return [error(to: peer, envelope, .unsupportedVersion, "protocol version \(envelope.protocolVersion); this dispatch speaks 1")]
        }
        if case .hello(let hello)? = envelope.body { return self.hello(hello, envelope, from: peer, at: time) }
        guard let sessionID = sessionOfPeer[peer], sessions[sessionID] != nil else {
            refused += 1
            return [error(to: peer, envelope, .unknownSession, "say Hello first")]
        }
        sessions[sessionID]!.lastHeard = time
        // Without a message id a request cannot be told from its retry: it is simply done.
        let key = envelope.messageID.isEmpty ? nil : sessionID + "/" + envelope.messageID
        if let key, let replies = memory.replies(to: key) {
            // A retry may come over a new socket (Lazy Pirate): the answer goes where it came from.
            return replies.map { reply in
                if case .toPeer(_, let body, let inReplyTo) = reply { return .toPeer(peer: peer, body: body, inReplyTo: inReplyTo) }
                return reply
            }
        }
        var replies: [Outgoing]
        do {
            replies = try handle(envelope, session: sessionID, peer: peer, at: time)
        } catch {
            refused += 1
            replies = [self.error(to: peer, envelope, error.code, error.reason)]
        }
        if let key { memory.remember(key, replies) }
        return replies + translate(engine.takeEvents())
    }

    /// Advances the engine's timers to `time` and expires silent sessions.
    public func tick(at time: Double) -> [Outgoing] {
        engine.advance(to: time)
        var out = translate(engine.takeEvents())
        let limit = Double(settings.sessionTimeoutMs) / 1000 * settings.speed
        for (id, session) in sessions.sorted(by: { $0.key < $1.key }) where time - session.lastHeard > limit {
            out += close(id, at: time, expired: true)
        }
        if time - legsLookedAt >= settings.legGrace / 4 {
            legsLookedAt = time
            out += overdueLegs(at: time)
        }
        return out
    }

    /// Where session `id` can be reached now: nil for no such session, or one without a line
    /// (dispatch recovered and it has not said Hello again: it is sent what it missed after the Welcome).
    func line(of id: String?) -> [UInt8]? {
        guard let id, let peer = sessions[id]?.peer, !peer.isEmpty else { return nil }
        return peer
    }

    /// Legs still open well past their arrival time, sent to their drivers again (at most once per
    /// grace period each): a lost DriveTo would otherwise leave its trip open for good. A driver
    /// who did finish the leg reports it done again.
    func overdueLegs(at time: Double) -> [Outgoing] {
        var out: [Outgoing] = []
        for (name, body) in lastLegTo.sorted(by: { $0.key < $1.key }) {
            guard case .driveTo(let drive) = body, !drive.cancelled, let driver = driverIDs[name],
                  engine.currentLeg(of: driver) == Int(drive.leg),
                  time > Double(drive.arriveAtMs) / 1000 + settings.legGrace,
                  time - (legResent[name] ?? -.infinity) >= settings.legGrace,
                  let peer = line(of: sessionOfDriver[name]) else { continue }
            legResent[name] = time
            out.append(.toPeer(peer: peer, body: body, inReplyTo: ""))
        }
        return out
    }

    /// The current state as events that recreate it (the Clone pattern's snapshot): every
    /// driver's state and every unfinished request.
    public func snapshot() -> [Wire.DispatchEvent] {
        var state: [Wire.DispatchEvent] = engine.driverStates.map { entry in
            Wire.DispatchEvent.with {
                $0.kind = .driverStateChanged
                $0.driverID = driverNames[entry.driver] ?? "\(entry.driver.rawValue)"
                $0.driverState = WireMapping.driverState(entry.state)
            }
        }
        for id in engine.unfinishedRequests {
            guard let progress = engine.progress(of: id) else { continue }
            state.append(Wire.DispatchEvent.with {
                $0.kind = .requestCreated
                $0.requestID = requestNames[id] ?? "\(id.rawValue)"
                $0.riderID = riderOfRequest[id] ?? ""
                $0.tripState = WireMapping.tripState(progress)
                if let driver = WireMapping.driver(of: progress) { $0.driverID = driverNames[driver] ?? "" }
            })
        }
        return state
    }

    // MARK: Sessions

    private func hello(_ hello: Hello, _ envelope: Envelope, from peer: [UInt8], at time: Double) -> [Outgoing] {
        guard !hello.sessionID.isEmpty else {
            refused += 1
            return [error(to: peer, envelope, .malformed, "Hello needs a session_id")]
        }
        let welcome = Outgoing.toPeer(peer: peer, body: .welcome(Welcome.with {
            $0.sessionID = hello.sessionID
            $0.heartbeatIntervalMs = settings.heartbeatIntervalMs
            $0.sessionTimeoutMs = settings.sessionTimeoutMs
            $0.simTimeMs = Int64(time * 1000)
        }), inReplyTo: envelope.messageID)
        if var existing = sessions[hello.sessionID] {
            // A reconnect: same session, perhaps a new socket identity. Whatever was sent to the old
            // socket may be lost, so each rider's last trip update and each driver's last leg
            // follow the Welcome (apps take a repeat as a no-op).
            sessionOfPeer[existing.peer] = nil
            existing.peer = peer
            existing.lastHeard = time
            sessions[hello.sessionID] = existing
            sessionOfPeer[peer] = hello.sessionID
            let resent = existing.riders.sorted().compactMap { lastToRider[$0].map(Envelope.OneOf_Body.tripUpdate) }
                + existing.drivers.sorted().compactMap { lastLegTo[$0] }
            return [welcome] + resent.map { .toPeer(peer: peer, body: $0, inReplyTo: "") }
        }
        sessions[hello.sessionID] = DeskSession(id: hello.sessionID, peer: peer, lastHeard: time)
        sessionOfPeer[peer] = hello.sessionID
        return [welcome, .publish(topic: Topic.dispatchSession, event: Wire.DispatchEvent.with {
            $0.kind = .sessionOpened
            $0.sessionID = hello.sessionID
        })]
    }

    /// Ends a session: its drivers go offline (their riders are matched again), its riders' open
    /// requests are cancelled by dispatch.
    func close(_ id: String, at time: Double, expired: Bool) -> [Outgoing] {
        guard let session = sessions.removeValue(forKey: id) else { return [] }
        sessionOfPeer[session.peer] = nil
        for name in session.drivers.sorted() {
            if let driver = driverIDs[name], engine.state(of: driver) != .offline {
                try? engine.driverOffline(driver, now: time)
            }
            sessionOfDriver[name] = nil
        }
        let reason = expired ? "the rider's session expired" : "the rider's session ended"
        for id in engine.unfinishedRequests {
            guard let rider = riderOfRequest[id], session.riders.contains(rider) else { continue }
            try? engine.cancel(id, by: .dispatch, reason: reason, now: time)
        }
        for rider in session.riders { sessionOfRider[rider] = nil }
        var out = translate(engine.takeEvents())
        out.append(.publish(topic: Topic.dispatchSession, event: Wire.DispatchEvent.with {
            $0.kind = expired ? .sessionExpired : .sessionClosed
            $0.sessionID = id
            $0.reason = expired ? "silent for more than \(settings.sessionTimeoutMs) ms" : "said goodbye"
        }))
        return out
    }

    // MARK: Errors

    func error(to peer: [UInt8], _ envelope: Envelope, _ code: ErrorCode, _ reason: String) -> Outgoing {
        .toPeer(peer: peer, body: .error(ErrorReply.with {
            $0.code = code
            $0.reason = reason
        }), inReplyTo: envelope.messageID)
    }
}

/// Why a request could not be served, as the error reply will say.
struct DeskFailure: Error {
    let code: ErrorCode
    let reason: String
}
