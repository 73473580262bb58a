import City
import DequeModule
import Faults
import Foundation
import RideDispatch
import SimulatedTime
import Wire
import ZeroMQ

/// The dispatch process: the desk behind a ROUTER (sessions; ROUTER_MANDATORY on) and a PUB (the
/// event bus), with a simulated clock running `speed` times wall time. Answers snapshot requests
/// itself, since it knows the bus sequence a snapshot is current to.
///
/// With a journal, every input is written down before dispatch acts on it; a dispatch started on
/// the journal of one that died replays it (``restore(from:)``) and carries on where it stopped.
public actor DispatchServer {
    /// Dispatch runs on its transport's I/O thread (see ``ZeroMQ/IOExecutor``).
    public nonisolated var unownedExecutor: UnownedSerialExecutor { router.executor.asUnownedSerialExecutor() }
    public nonisolated let speed: Double
    /// "dispatch", or a shard's "dispatch-K": its health reports' name and its senders'.
    public nonisolated let processName: String
    let core: DispatchCore
    private var desk: DispatchDesk { core.desk }
    let router: Socket
    let bus: Socket
    let journal: DispatchJournal?
    /// Snapshots beside the journal (with one), and how often they are taken.
    let snapshots: (store: SnapshotStore, policy: SnapshotPolicy)?
    /// The journal's entry count when the last snapshot was taken, when, and whether its file is
    /// still being written.
    private var snapshotAt = (entries: 0, wall: ContinuousClock.now)
    private var snapshotWriting = false
    /// Snapshots written so far, and the last one's size and encoding time.
    public private(set) var snapshotsWritten = SnapshotCounts()
    /// When simulated time was 0, on the wall clock (Unix milliseconds): a restarted dispatch
    /// keeps its predecessor's clock, as the sessions do.
    let wallOriginMs: Int64
    let started: ContinuousClock.Instant
    /// Simulated time never goes back, even if the wall clock does across a restart.
    var timeFloor: Double = 0
    /// How late (simulated seconds) the engine's timers ran since the last status report.
    private var lateness: Double = 0
    /// Events waiting for the bus (and, in virtual time, the keeper), in the order stamped.
    private var publishQueue: [Message] = []
    /// Virtual time: window reports waiting for the keeper, each after the events queued before it.
    private var reportQueue: [Message] = []
    private var publishing = false
    /// Bus events a restored dispatch publishes again once running (see ``restore(from:)``).
    private var republish: [Message] = []
    /// Events published on the bus over the run, by kind (a restored dispatch's included).
    public var published: [DispatchEventKind: Int] { core.stampers.eventsByKind }
    /// Sharded: drivers this shard handed to another (a restored shard's included).
    public var driversHandedOver: Int { desk.driversHandedOver }
    /// Sharded: what this shard did across its borders (a restored shard's included).
    public var borderCounts: BorderDesk.Counts? { desk.border?.counts }
    /// The fault layer on what dispatch sends to sessions (stress mode), with what it did so far.
    public internal(set) var faults: FaultInjector
    var stopped = false
    private var serving: Task<Void, any Error>?
    /// Virtual time: the participant's side of the windows, and the instant being handled.
    var virtual: VirtualDispatch?
    /// Virtual time: the DEALER to the coordinator's window link (openings in, reports out).
    var windowLink: Socket?
    /// Sharded: a DEALER connected to each other shard's sessions endpoint, by shard.
    private var shardLinks: [Int: Socket] = [:]
    /// Over CURVE in virtual time: the name each connection's key was issued to, by its ROUTER
    /// identity, for messages held until their window.
    var usersOfPeers: [[UInt8]: String] = [:]
    /// Each connection's allowance, in wall time (docs/ARCHITECTURE.md, threat model).
    var rateLimit = ConnectionRateLimit(perSecond: DispatchServer.messagesPerSecond, burst: DispatchServer.messagesBurst)

    /// What one connection may send: far above what a host of thousands of apps sends at any speed
    /// measured (a few hundred a second), far below a flood.
    public static let messagesPerSecond = 5_000.0
    public static let messagesBurst = 20_000.0
    private var tracer: (@Sendable (TraceLine) -> Void)?

    /// What crosses dispatch's ROUTER, for a transcript (`ribcity demo`).
    public enum TraceLine: Sendable {
        case received(Envelope)
        case sent(Envelope)
        /// A frame that is not a ribcity envelope, and why.
        case malformed(String)
    }

    /// - Parameters:
    ///   - router: a bound (or to-be-bound) ROUTER socket for sessions.
    ///   - bus: a PUB socket for events (bound here, or connected to the bus proxy).
    ///   - journal: where to write every input down (none: nothing survives the process).
    ///   - wallOriginMs: when simulated time was 0 (Unix milliseconds); now, unless restoring.
    ///   - faults: dropped, duplicated and delayed replies and pushes (stress mode; none by default).
    public init(
        travel: TravelTimeSchedule, configuration: DispatchConfiguration,
        settings: DispatchDesk.Settings = DispatchDesk.Settings(),
        router: Socket, bus: Socket, speed: Double, journal: DispatchJournal? = nil, wallOriginMs: Int64? = nil,
        snapshots: SnapshotPolicy? = SnapshotPolicy(), faults: MessageFaults = MessageFaults()
    ) {
        self.faults = FaultInjector(faults)
        var settings = settings
        settings.speed = speed
        processName = settings.shard.map { $0.process($0.index) } ?? "dispatch"
        core = DispatchCore(
            desk: DispatchDesk(
                engine: DispatchEngine(travel: travel, configuration: configuration),
                settings: settings),
            process: processName)
        self.router = router
        self.bus = bus
        self.speed = speed
        self.journal = journal
        self.snapshots = journal.flatMap { journal in snapshots.map { (SnapshotStore(journalPath: journal.path), $0) } }
        let now = WallOrigin.now()
        self.wallOriginMs = wallOriginMs ?? now
        started = ContinuousClock.now - .milliseconds(max(0, now - self.wallOriginMs))
    }

    /// Simulated seconds since the run's clock started.
    public var simulatedTime: Double {
        if let virtual { return max(timeFloor, virtual.now.seconds) }
        return max(timeFloor, (ContinuousClock.now - started) / .seconds(1) * speed)
    }

    /// What a restore did.
    public struct Recovery: Sendable {
        /// The journal's entries, and how many of them were replayed (those after the snapshot).
        public var entries: Int
        public var replayed: Int
        /// The snapshot restored first (none: the whole journal was replayed), and the newer
        /// ones passed over, with why.
        public var snapshot: String?
        public var skippedSnapshots: [String]
        /// Simulated time of the last entry replayed, and when dispatch came back.
        public var replayedTo: Double
        public var resumedAt: Double
        public var requests: Int
        public var sessions: Int
    }

    /// Rebuilds dispatch's state by replaying a journal's entries (as their `started` clock says;
    /// call before ``run(tick:)``), then journals the recovery: every session gets a fresh
    /// timeout, to say Hello again on its new connection (and be sent its riders' last trip
    /// updates and its drivers' last legs). What the replay sent is not sent again, except the
    /// last bus events: those the dead process may have stamped and not yet published are
    /// published again once running (subscribers drop the ones they already saw by sequence).
    ///
    /// With snapshots, the newest whole one of this journal is restored first and only the entries
    /// after it are replayed.
    public func restore(from journal: DispatchJournal.Contents) throws -> Recovery {
        try restore(from: RestorePoint(journal: journal, snapshots: snapshots?.store))
    }

    /// Restores from a journal and the snapshot found beside it (``RestorePoint/load(journal:snapshots:)``,
    /// which a process may run while it loads its city).
    public func restore(from point: RestorePoint) throws -> Recovery {
        let journal = point.journal
        var start = DispatchJournal.magic.count
        if let snapshot = point.snapshot {
            core.restore(snapshot)
            timeFloor = max(timeFloor, snapshot.time)
            start = snapshot.journalBytes
            snapshotAt.entries = snapshot.journalEntries
        }
        var replayed = 0
        try journal.forEachEntry(from: start) { entry in
            var out = Outbox()
            out.replaying = true
            core.apply(entry, into: &out)
            if let time = entry.time { timeFloor = max(timeFloor, time) }
            replayed += 1
        }
        republish = core.stampers.recentEvents.map {
            Message(Frames.Published(topic: $0.topic, envelope: $0.envelope.message).frames)
        }
        // The tail holds the bus stamper's last events, in order. Its sequence 1 is left out: a
        // subscriber takes a 1 after higher numbers for a restarted sender and would count
        // everything again (and 1 was surely published if anything after it was seen).
        if core.stampers.events.lastSequence == UInt64(republish.count), !republish.isEmpty { republish.removeFirst() }
        let replayedTo = timeFloor
        let now = simulatedTime
        try record([.recovered(time: now)])
        var out = Outbox()
        core.apply(.recovered(time: now), into: &out)
        // In virtual time the fresh timeouts count from the first window (see VirtualDispatch).
        virtual?.recovering = true
        core.lateness = 0
        return Recovery(
            entries: journal.count, replayed: replayed, snapshot: point.snapshotPath, skippedSnapshots: point.skipped,
            replayedTo: replayedTo, resumedAt: now,
            requests: desk.requestCount, sessions: desk.sessionCount)
    }

    /// Bus events published again after a restore: more than one batch's worth.
    static let republishLimit = 5_000

    /// Serves until ``stop()`` or cancellation: messages as they come, timers every `tick`.
    public func run(tick: Duration = .milliseconds(50)) async throws {
        if let journal, journal.size <= DispatchJournal.magic.count {
            try record([.started(wallOriginMs: wallOriginMs, speed: speed)])
        }
        if !republish.isEmpty {
            // The bus proxy forwards subscriptions to a new publisher a moment after it connects.
            try await Task.sleep(for: .milliseconds(300))
            var out = Outbox()
            out.published = republish
            republish = []
            try await send(out)
        }
        // The loops run on the I/O thread, with this actor: a message goes from the socket to the
        // desk and its answer back without waking another thread.
        try await untilStopped { try await self.serve(tick: tick) }
        // The last word on the bus: final counts for whoever records the run.
        try? await publishStatus(final: true)
    }

    private func serve(tick: Duration) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.serveSessions() }
            group.addTask {
                var lastStatus = ContinuousClock.now
                while await !self.stopped {
                    let asleep = ContinuousClock.now
                    try await self.router.executor.sleep(for: tick)
                    try await self.advance(late: ContinuousClock.now - asleep - tick)
                    if ContinuousClock.now - lastStatus >= .seconds(1) {
                        lastStatus = .now
                        try await self.publishStatus()
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Handles what the sessions send until dispatch stops, on this actor (docs/ARCHITECTURE.md,
    /// "The transport": a loop off it switched executors twice a batch).
    private func serveSessions() async throws {
        for try await batch in router.batches() {
            try await handle(batch)
            if stopped { return }
        }
    }

    /// Ends ``run(tick:)`` or ``runVirtual(_:windows:)`` at once (their loops are cancelled).
    public func stop() {
        stopped = true
        serving?.cancel()
    }

    /// Runs `loops` on the I/O thread, with this actor (a message goes from the socket to the desk
    /// and its answer back without waking another thread), until they end or ``stop()``.
    func untilStopped(_ loops: @escaping @Sendable () async throws -> Void) async throws {
        let task = Task(executorPreference: router.executor) { try await loops() }
        serving = task
        if stopped { task.cancel() }
        do { try await task.value } catch { if !stopped { throw error } }
    }

    /// The promises dispatch broke so far (none, if it works).
    public var violations: [InvariantViolation] { desk.checker.violations }

    /// How many messages were malformed, refused, or had no peer to go to.
    public var counts: (malformed: Int, refused: Int, forbidden: Int, rateLimited: Int, undeliverable: Int) {
        (core.malformed.total, desk.refused, desk.forbiddenCount, rateLimit.dropped, router.statistics().sendFailures)
    }

    /// Tells `observer` every envelope received and sent, and every malformed frame.
    public func trace(with observer: @escaping @Sendable (TraceLine) -> Void) { tracer = observer }

    private func handle(_ batch: [Message]) async throws {
        if let tracer {
            for message in batch {
                do { tracer(.received(try Frames.Routed(frames: message.frames).envelope)) } catch {
                    tracer(.malformed("\(error)"))
                }
            }
        }
        let now = (ContinuousClock.now - started) / .seconds(1)
        // Each message's frames taken once: one received in a batch copies them out at each ask.
        let admitted = batch.compactMap { message -> JournalEntry? in
            let frames = message.frames
            guard rateLimit.admit(frames[0], at: now) else { return nil }
            return .received(time: simulatedTime, frames: frames, user: message.userID ?? "")
        }
        try await act(on: admitted)
        if core.stopRequested { stopped = true }
    }

    private func advance(late: Duration) async throws {
        lateness = max(lateness, late / .seconds(1) * speed)
        try await act(on: [.tick(time: simulatedTime)])
    }

    /// The live path: entries written down, acted on, and what they produce sent.
    /// Acting before writing is safe: nothing leaves the process until the journal has it.
    func act(on entries: [JournalEntry]) async throws {
        var out = outbox()
        let kept = entries.map { core.apply($0, into: &out) }
        try await conclude(kept, out)
    }

    /// An empty outbox for a batch of entries: framed here in wall-clock time, numbered on their
    /// links first in virtual time.
    func outbox() -> Outbox {
        var out = Outbox()
        out.framesRouted = virtual == nil
        return out
    }

    /// Journals entries already applied, then sends what they produced.
    func conclude(_ kept: [JournalEntry], _ out: Outbox) async throws {
        try record(kept)
        // Here, before any suspension, the state is exactly what the journal holds.
        snapshotIfDue()
        try await send(out)
    }

    /// Takes a snapshot when enough entries were journaled since the last one (and it is not
    /// too soon after it): the state is taken here, sharing its collections with the live one,
    /// and encoded and written off this actor, so dispatch goes on serving meanwhile.
    private func snapshotIfDue() {
        guard let snapshots, let journal, !snapshotWriting,
            journal.count - snapshotAt.entries >= snapshots.policy.everyEntries,
            ContinuousClock.now - snapshotAt.wall >= snapshots.policy.gap(after: snapshotsWritten.lastSeconds)
        else { return }
        let snapshot = core.snapshot(
            journalOrigin: wallOriginMs, journalEntries: journal.count, journalBytes: journal.size, time: simulatedTime)
        snapshotAt = (journal.count, .now)
        snapshotWriting = true
        // The last snapshot's size and an eighth for growth: the state grows between snapshots.
        let sizeHint = snapshotsWritten.lastBytes + snapshotsWritten.lastBytes / 8
        Task.detached(priority: .utility) {
            let began = ContinuousClock.now
            let result = Result { try snapshots.store.write(snapshot, sizeHint: sizeHint) }
            await self.snapshotDone(result.map(\.bytes), seconds: (ContinuousClock.now - began) / .seconds(1))
        }
    }

    private func snapshotDone(_ result: Result<Int, any Error>, seconds: Double) {
        snapshotWriting = false
        switch result {
        case .success(let bytes):
            snapshotsWritten.count += 1
            snapshotsWritten.lastBytes = bytes
            snapshotsWritten.lastSeconds = seconds
        case .failure(let error):
            snapshotsWritten.failures += 1
            snapshotsWritten.lastFailure = "\(error)"
        }
    }

    /// Writes entries to the journal (if any) before they are acted on.
    func record(_ entries: [JournalEntry]) throws {
        try journal?.append(entries)
    }

    /// This process's health on `status.dispatch`, about once a second; `final` once it has
    /// stopped serving (``ProcessStatus/final``).
    func publishStatus(final: Bool = false) async throws {
        let stats = router.statistics()
        let status = ProcessStatus.current(
            role: .dispatch, processID: processName, messagesIn: stats.received, messagesOut: stats.sent,
            apps: desk.engine.driverCount, lagSeconds: max(lateness, core.lateness)
        ) {
            $0.malformed = UInt64(core.malformed.total)
            $0.checks = desk.checks
            $0.checks.malformed = UInt32(clamping: core.malformed.total)
            $0.checks.rateLimited = UInt32(clamping: rateLimit.dropped)
            $0.final = final
        }
        lateness = 0
        core.lateness = 0
        let envelope = core.statusEnvelope(status, at: simulatedTime)
        try await bus.send(Message(Frames.Published(topic: Topic.status(of: processName), envelope: envelope).frames))
    }

    /// Published messages go to the PUB in the order they were stamped, routed ones to the
    /// ROUTER (one at a time: a vanished peer is counted, not fatal). In virtual time the events
    /// also go to the keeper over the window link, which records them and feeds the run's tables:
    /// the bus carries them only to whoever else subscribes (a monitor, a recorder).
    ///
    /// The actor is reentrant: while one batch awaits its sends, the timer may stamp and send the
    /// next. So events join one queue before the first suspension and a single drain publishes
    /// it, keeping the bus's sequence numbers in order.
    func send(_ out: Outbox) async throws {
        publishQueue += out.published
        try await drainPublishQueue()
        // Not confirmed one by one: waiting on a session that does not read would stop dispatch
        // reading everyone else. What libzmq refuses (a peer gone, or full for too long) is counted.
        let routed = withFaults(out.routed) + stampedForWindows(out.unframed) + out.refusals
        if let tracer {
            for message in routed { if let sent = try? Frames.Routed(frames: message.frames) { tracer(.sent(sent.envelope)) } }
        }
        // Each session's together: a batch in event order goes to a host over a packet link as a
        // datagram per run of its messages (four or five a window in metro), not one.
        if !routed.isEmpty { try await router.send(contentsOf: routed.groupedByPeer()) }
        if !out.toShards.isEmpty { toShards(out.toShards) }
    }

    /// Virtual time: the window's report goes to the keeper after every event stamped before it
    /// (the keeper writes a window's events once it has every report of the window).
    func sendToKeeper(_ report: Message) async throws {
        reportQueue.append(report)
        try await drainPublishQueue()
    }

    /// Sends what waits: each round the events, then the reports queued after them. A drain
    /// already under way (the actor is reentrant) takes what joins the queues meanwhile.
    private func drainPublishQueue() async throws {
        guard !publishing else { return }
        publishing = true
        defer { publishing = false }
        while !publishQueue.isEmpty || !reportQueue.isEmpty {
            let events = publishQueue, reports = reportQueue
            publishQueue = []
            reportQueue = []
            if !events.isEmpty { try await bus.send(contentsOf: events) }
            // One batch: the events and the report after them go to the keeper in one datagram.
            if !events.isEmpty || !reports.isEmpty { try await windowLink?.send(contentsOf: events + reports) }
        }
    }

    /// Sharded: the links to the other shards, by shard (each a DEALER connected to that
    /// shard's sessions endpoint; what comes back arrives on this shard's own ROUTER).
    public func link(toShards sockets: [Int: Socket]) {
        shardLinks = sockets
    }

    /// Sends frames to other shards, numbered on their links in virtual time. A shard that is
    /// down must not hold this one up: each batch is sent by a task of its own, and what is lost
    /// is sent again by the border's links (``ShardLink``).
    private func toShards(_ frames: [(shard: Int, envelope: Envelope)]) {
        var batches: [Int: [Message]] = [:]
        let shards = desk.settings.shard?.map.shards ?? 1
        for (shard, var envelope) in frames {
            virtual?.number(&envelope, to: WireIDs.dispatchProcess(shard: shard, of: shards))
            batches[shard, default: []].append(Message([WireCodec.encode(envelope)]))
        }
        for (shard, messages) in batches.sorted(by: { $0.key < $1.key }) {
            guard let socket = shardLinks[shard] else { continue }
            Task { try? await socket.send(contentsOf: messages) }
        }
    }
}

extension DispatchServer {
    /// What reaches the ROUTER of `routed`, the fault layer having had its way: dropped ones
    /// counted, duplicates twice, delayed ones sent later on their own (so later ones overtake them).
    private func withFaults(_ routed: [Message]) -> [Message] {
        guard !faults.faults.isEmpty, !routed.isEmpty else { return routed }
        var sent: [Message] = []
        for message in routed {
            let fate = faults.next()
            if let wait = fate.delay {
                Task { [router] in
                    try? await Task.sleep(for: wait)
                    try? await router.send(message)
                }
            }
            sent += repeatElement(message, count: fate.copies)
        }
        return sent
    }
}

/// The sequence stampers of dispatch's replies and of its bus events.
struct Stampers: Codable {
    var replies: SequenceStamper
    var events: SequenceStamper
    var status: SequenceStamper
    /// Answers to frames that were not messages.
    var refusals: SequenceStamper
    /// Bus events stamped over the run, by kind: the run's totals, which a snapshot carries.
    var eventsByKind: [DispatchEventKind: Int] = [:]
    /// The last bus events stamped (up to ``DispatchServer/republishLimit``): a dispatch that
    /// died may have stamped them and not published them yet; the one restored publishes them
    /// again (subscribers drop those they saw by sequence).
    var recentEvents = Deque<RecentEvent>()

    /// The stampers of dispatch process `process` ("dispatch", or a shard's "dispatch-K"): each a
    /// sender of its own, so that sequence numbers are contiguous per shard.
    init(process: String = "dispatch") {
        replies = SequenceStamper(sender: process)
        events = SequenceStamper(sender: process + "-bus")
        status = SequenceStamper(sender: process + "-status")
        refusals = SequenceStamper(sender: process + "-refusals")
    }

    struct RecentEvent: Codable, Sendable {
        let topic: String
        let envelope: CodedMessage<Envelope>
    }

    mutating func remember(_ envelope: Envelope, topic: String) {
        if recentEvents.count == DispatchServer.republishLimit { recentEvents.removeFirst() }
        recentEvents.append(RecentEvent(topic: topic, envelope: CodedMessage(envelope)))
    }
}

/// Messages ready to send: to sessions through the ROUTER, and to the bus.
struct Outbox {
    var routed: [Message] = []
    /// Answers to frames that were not messages: sent as they are, past the fault layer (in
    /// virtual time a fault drawn for them would shift the faults drawn for participants).
    var refusals: [Message] = []
    var published: [Message] = []
    /// Virtual time: replies and pushes are left unframed here, for the server to number on their
    /// links and frame (``DispatchServer/stampedForWindows(_:)``).
    var framesRouted = true
    var unframed: [(peer: [UInt8], envelope: Envelope)] = []
    /// Frames for other dispatch shards, sent over this shard's links to them.
    var toShards: [(shard: Int, envelope: Envelope)] = []
    /// A replay only needs the stamps (the sequence numbers must come out as they did): messages
    /// are not framed.
    var replaying = false

    /// Stamps and frames the desk's outgoing messages at simulated `time`.
    mutating func add(_ outgoing: [Outgoing], at time: Double, stampers: inout Stampers) {
        let ms = SimTime(seconds: time).wireMilliseconds
        for item in outgoing {
            switch item {
            case .toPeer(let peer, let body, let inReplyTo):
                let stamp = stampers.replies.next()
                guard !replaying else { continue }
                let envelope = Envelope(body, from: stamp, inReplyTo: inReplyTo, simTimeMs: ms)
                if framesRouted {
                    routed.append(Message(Frames.Routed(peer: peer, envelope: envelope).frames))
                } else {
                    unframed.append((peer, envelope))
                }
            case .snapshot:
                // Built by the core, which knows the bus sequence it is current to.
                continue
            case .toShard(let shard, let frame):
                let stamp = stampers.replies.next()
                guard !replaying else { continue }
                toShards.append((shard, Envelope(.shardFrame(frame), from: stamp, simTimeMs: ms)))
            case .publish(let topic, let event):
                stampers.eventsByKind[event.kind, default: 0] += 1
                let envelope = Envelope(.dispatchEvent(event), from: stampers.events.next(), simTimeMs: ms)
                stampers.remember(envelope, topic: topic)
                if !replaying {
                    published.append(Message(Frames.Published(topic: topic, envelope: envelope).frames))
                }
            }
        }
    }
}
