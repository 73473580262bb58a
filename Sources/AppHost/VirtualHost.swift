import AppRuntime
import Faults
import Foundation
import RIBs
import SimulatedTime
import VirtualTime
import Wire
import ZeroMQ

/// A host's side of virtual time: the window participant, the requests awaiting replies (resent
/// after a simulated timeout, same message id), the heartbeat schedule, the instant handled.
///
/// A class, owned by its host actor and never shared: as a struct in an optional, each read of
/// one field through it (`virtual?.now`) copied and destroyed the whole state, 6–7 % of a host's
/// CPU in virtual time.
final class VirtualHost {
    /// A request sent and not yet answered.
    struct Pending: Sendable {
        var app: String?
        var body: Envelope.OneOf_Body
        var stamp: SenderStamp
        var attempt: Int
        var deadline: Double
        /// The dispatch shard it went to (0 for one dispatch).
        var shard = 0
        /// The host's own bringing of a handed-over driver online: its answer is for no app.
        var handover = false
    }

    var participant: WindowParticipant<Envelope>
    var stamper: SequenceStamper
    var reports: SequenceStamper
    var pending = PendingRequests()
    /// The shards that welcomed this life's session, and those it said Hello to (again after a
    /// shard's restart).
    var welcomedBy: Set<Int> = []
    var helloSent: Set<Int> = []
    /// The dispatch processes, in shard order ("dispatch", or "dispatch-K").
    let shards: [String]
    var welcomed: Bool { welcomedBy.count == shards.count }
    /// This life's session token, the same in every Hello it says (dispatch takes the session
    /// back after its own restart only with it).
    let token = SessionToken.draw()
    /// The life of each dispatch shard this host last said Hello to: a new life (restored from its
    /// journal) is greeted again, and sends what the host missed.
    var dispatchLives: [Int: UInt32] = [:]
    var nextHeartbeat: Double?
    let heartbeat: Double
    /// Every live app is ticked this often whether it asked or not (as in wall-clock time: an app
    /// whose awaited message was lost notices it on such a tick).
    var nextSweep: Double?
    let sweep: Double
    let timeout: Double
    let attempts: Int
    var faults: FaultInjector
    var now: Double
    /// The apps' location updates of the instant, sent together.
    var heldLocations = HeldLocations()
    /// What the window sent so far to each dispatch shard (by shard), handed to its DEALER in one
    /// batch before the report: the I/O thread sends nothing before the window's work is done
    /// anyway, and one hand-over a window costs less than one a message.
    var outgoing: [[Message]]

    init(
        participant: WindowParticipant<Envelope>, stamper: SequenceStamper, reports: SequenceStamper, shards: [String],
        heartbeat: Double, sweep: Double, timeout: Double, attempts: Int, faults: FaultInjector, now: Double
    ) {
        self.participant = participant
        self.stamper = stamper
        self.reports = reports
        self.shards = shards
        self.heartbeat = heartbeat
        self.sweep = sweep
        self.timeout = timeout
        self.attempts = attempts
        self.faults = faults
        self.now = now
        outgoing = Array(repeating: [], count: shards.count)
    }

    var name: String { participant.id.name }
    var life: UInt32 { participant.id.incarnation }
}

extension AppHost {
    /// How a host runs in virtual time.
    public struct VirtualClock: Sendable {
        public var life: UInt32
        public var latency: SimDuration
        /// Simulated seconds between heartbeats (dispatch expires a session silent for five).
        public var heartbeat: Double
        /// Simulated seconds to wait for a reply before asking again.
        public var timeout: Double
        /// Simulated seconds between ticks of every live app.
        public var sweep: Double
        public var attempts: Int
        public var faults: MessageFaults

        public init(
            life: UInt32, latency: SimDuration, heartbeat: Double, timeout: Double, sweep: Double, attempts: Int = 10,
            faults: MessageFaults = MessageFaults()
        ) {
            self.sweep = sweep
            self.life = life
            self.latency = latency
            self.heartbeat = heartbeat
            self.timeout = timeout
            self.attempts = attempts
            self.faults = faults
        }
    }

    /// Runs in virtual time until ``stop()`` (or, with `endWhenAllFinished`, until every app is
    /// done): in each window, dispatch's messages and the apps' starts, wake-ups and request
    /// timeouts are handled in one fixed order, and everything sent is numbered on its link.
    /// - Parameters:
    ///   - dealers: a DEALER per dispatch shard (one for one dispatch), in shard order, each
    ///     with this process's id as routing id, connected to its shard.
    ///   - windows: a DEALER connected to the coordinator's window link, hello said.
    public func runVirtual(_ clock: VirtualClock, dealers: [Socket], windows: Socket) async throws {
        precondition(dealers.count == routing.shards, "a DEALER per shard")
        self.dealers = dealers
        windowLink = windows
        virtual = VirtualHost(
            participant: WindowParticipant(id: ParticipantID(processID, incarnation: clock.life), latency: clock.latency),
            stamper: SequenceStamper(sender: WireIDs.session(ofProcess: processID, life: clock.life)),
            reports: SequenceStamper(sender: processID + "-window"),
            shards: WireIDs.dispatchProcesses(routing.shards), heartbeat: clock.heartbeat, sweep: clock.sweep,
            timeout: clock.timeout, attempts: clock.attempts,
            faults: FaultInjector(clock.faults), now: 0)
        let box = VirtualNow()
        released = LeakDetector(budget: .milliseconds(Int64(settings.leakBudget * 1000))) { box.duration }
        self.box = box
        // The loops run on the I/O thread, with this actor and its apps, until they end or stop().
        let task = Task(executorPreference: session.executor) {
            try await self.serveVirtual(dealers: dealers, windows: windows)
        }
        serving = task
        if stopping { task.cancel() }
        do { try await task.value } catch { if !stopping { throw error } }
        await publishStatus(at: now ?? 0, final: true)
    }

    private func serveVirtual(dealers: [Socket], windows: Socket) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for dealer in dealers {
                group.addTask { try await self.readDispatch(dealer) }
            }
            group.addTask { try await self.readWindows(windows) }
            group.addTask {
                while await !self.isDone {
                    try await Task.sleep(for: .seconds(1))
                    await self.publishStatus(at: await self.now ?? 0)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Reads a session with dispatch until the host is done, on this actor: each message goes to
    /// ``arrived(_:)`` without switching executors (docs/ARCHITECTURE.md, "The transport").
    private func readDispatch(_ dealer: Socket) async throws {
        for try await batch in dealer.batches() {
            for message in batch { try await arrived(message.rest.last ?? message.first) }
            if isDone { return }
        }
    }

    /// Reads the keeper's openings until the host is done, on this actor.
    private func readWindows(_ windows: Socket) async throws {
        var reader = WindowOpenReader()
        for try await batch in windows.batches() {
            for opening in batch.compactMap({ reader.opening(from: $0.frames) }) { try await opened(opening) }
            if isDone { return }
        }
    }

    /// Whether the run loop should end.
    var isDone: Bool {
        stopping || (settings.endWhenAllFinished && finishedEverything)
    }

    private var finishedEverything: Bool {
        guard let virtual else { return false }
        return virtual.welcomed && schedule.isEmpty && live.isEmpty && virtual.pending.isEmpty
    }

    /// A message from dispatch (its last frame: the envelope).
    private func arrived(_ frame: [UInt8]) async throws {
        guard let life = virtual?.life else { return }
        guard let envelope = try? WireCodec.decode(frame), envelope.link > 0 else {
            totals.unrouted += 1
            return
        }
        guard envelope.receiverLife == life else {
            // Addressed to another life of this process: for apps it no longer has.
            totals.unrouted += 1
            return
        }
        // In place: a copy of the state would copy the whole inbox for every message.
        guard
            let step = virtual?.participant.arrived(
                envelope, sentAt: envelope.simTime,
                from: ParticipantID(envelope.sender, incarnation: envelope.senderLife).senderKey,
                sequence: envelope.sequence, link: envelope.link)
        else { return }
        try await perform(step)
    }

    private func opened(_ opening: WindowOpening) async throws {
        guard let step = virtual?.participant.opened(opening) else { return }
        try await perform(step)
    }

    private func perform(_ step: WindowParticipant<Envelope>.Step) async throws {
        switch step {
        case .wait: return
        case .report(let report): try await publish(report)
        case .drain:
            let next = nextTimer()
            guard let report = virtual?.participant.finish(nextTimer: next) else { return }
            try await publish(report)
        case .work(let opening):
            for (shard, name) in (virtual?.shards ?? []).enumerated() {
                let life = opening.incarnations[name]
                if let life, let known = virtual?.dispatchLives[shard], life != known { virtual?.helloSent.remove(shard) }
                virtual?.dispatchLives[shard] = life
            }
            try await work(through: opening.window)
        }
    }

    /// Handles, in order, everything due before the window's end: dispatch's messages (in the
    /// participant's order), then at each instant the apps' starts (by time), wake-ups (by app id)
    /// and request timeouts (by message id), and the heartbeat.
    private func work(through window: Window) async throws {
        let began = ContinuousClock.now
        guard var inputs = virtual?.participant.inputs()[...], let now = virtual?.now, let life = virtual?.life,
            let token = virtual?.token
        else { return }
        virtual?.now = max(now, window.start.seconds)
        for shard in sessions.indices where virtual?.helloSent.contains(shard) == false {
            virtual?.helloSent.insert(shard)
            let start = window.start.seconds
            // The periods are read first: an assignment through `virtual?` holds it while its
            // right side is evaluated.
            if virtual?.nextHeartbeat == nil, let period = virtual?.heartbeat { virtual?.nextHeartbeat = start + period }
            if virtual?.nextSweep == nil, let period = virtual?.sweep { virtual?.nextSweep = start + period }
            let hello = Hello.with {
                $0.role = role
                $0.sessionID = WireIDs.session(ofProcess: processID, life: life)
                $0.process = processID
                $0.sessionToken = token
            }
            await sendInWindow(.request(.hello(hello)), app: nil, shard: shard)
        }
        let end = window.end.seconds
        while true {
            guard let next = [inputs.first?.time.seconds, nextOwnEvent().map(Self.onGrid)].compactMap({ $0 }).min(), next < end
            else { break }
            let instant = max(next, window.start.seconds)
            virtual?.now = instant
            box?.seconds = instant
            if let input = inputs.first, input.time.seconds <= next {
                inputs.removeFirst()
                await handle(input.payload)
            } else if let start = schedule.last, start.at <= next {
                schedule.removeLast()
                let app = start.make(instant, self)
                live[app.id] = app
                totals.started += 1
                await dispatch(await app.start(at: instant), of: app)
            } else if let due = wakes.popDue(by: next)?.id {
                if let app = live[due] { await dispatch(await app.tick(at: instant), of: app) }
            } else if let id = virtual?.pending.popDue(by: next) {
                await timedOut(id)
            } else if let sweep = virtual?.nextSweep, sweep <= next, !live.isEmpty {
                let period = virtual?.sweep ?? 300
                virtual?.nextSweep = max(sweep, instant) + period
                for id in live.keys.sorted() {
                    guard let app = live[id] else { continue }
                    wakes.remove(id)
                    await dispatch(await app.tick(at: instant), of: app)
                }
            } else if let beat = virtual?.nextHeartbeat, beat <= next {
                let period = virtual?.heartbeat ?? 60
                virtual?.nextHeartbeat = beat + period
                for shard in sessions.indices { await sendInWindow(.message(.heartbeat(Heartbeat())), app: nil, shard: shard) }
            }
            released?.check()
            totals.leaks = appLeaks + (released?.leakCount ?? 0)
        }
        await sendHeldLocations()
        let reached = max(virtual?.now ?? 0, window.start.seconds)
        virtual?.now = reached
        let leaving = settings.endWhenAllFinished && finishedEverything
        if leaving {
            // The goodbye is part of the window, so that dispatch handles it at its time.
            for shard in sessions.indices {
                await sendInWindow(.message(.goodbye(Goodbye.with { $0.reason = "every app finished" })), app: nil, shard: shard)
            }
            virtual?.nextHeartbeat = nil
        }
        let next = nextTimer()
        guard let report = virtual?.participant.finish(nextTimer: next, busy: .now - began, leaving: leaving) else { return }
        try await publish(report)
    }

    /// This host's earliest timer: an app's start or wake-up, a request's timeout, the heartbeat.
    private func nextTimer() -> SimTime? {
        nextOwnEvent().map { SimTime(seconds: Self.onGrid($0)) }
    }

    /// The millisecond at or after `time`: when an event of this host's own (an app's start or
    /// wake-up, a timeout) is handled. Windows start on whole milliseconds, so an event between
    /// two is handled at the later one whatever window it falls in; handled at its exact time,
    /// it would be handled at the window's start instead when the window opened for it, and the
    /// run's results would depend on which participant's event opened which window.
    static func onGrid(_ time: Double) -> Double {
        // Less a hair, so that a time already on the grid (312.452, which × 1000 is a little
        // above 312452 in binary) stays where it is; but never before `time`, or the event due
        // then would not count as due at its own instant.
        let millisecond = (time * 1_000 - 1e-6).rounded(.up)
        let onGrid = millisecond / 1_000
        return onGrid >= time ? onGrid : (millisecond + 1) / 1_000
    }

    /// When this host next has something of its own to do, in simulated seconds.
    private func nextOwnEvent() -> Double? {
        var earliest = schedule.last?.at
        func consider(_ time: Double?) {
            if let time, earliest.map({ time < $0 }) ?? true { earliest = time }
        }
        consider(wakes.earliest())
        consider(virtual?.pending.earliestDeadline())
        consider(virtual?.nextHeartbeat)
        if !live.isEmpty { consider(virtual?.nextSweep) }
        return earliest
    }

    /// A message from dispatch: a reply goes to the app that asked (or completes the Hello), a
    /// push to the app it names.
    private func handle(_ envelope: Envelope) async {
        guard !envelope.inReplyTo.isEmpty else {
            await deliver(envelope)
            return
        }
        totals.messagesIn += 1
        guard let pending = virtual?.pending.remove(envelope.inReplyTo), !pending.handover else { return }
        guard let id = pending.app else {
            if case .welcome? = envelope.body { virtual?.welcomedBy.insert(pending.shard) }
            return
        }
        defer { settle(id) }
        var reply = envelope.body ?? .error(ErrorReply.with { $0.reason = "an empty reply" })
        switch reply {
        case .error(let error)
        where error.code == .notOwner && Int(error.shard) != pending.shard
            && sessions.indices.contains(Int(error.shard)):
            // Another shard owns it: asked again there (a new message, so that a duplicate of the
            // first answer cannot be taken for this one's).
            routing.handOver(id, to: Int(error.shard))
            await sendInWindow(.request(pending.body), app: id, shard: Int(error.shard))
            return
        case .ack(let ack) where ack.hasHandover && sessions.indices.contains(Int(ack.handover.shard)):
            // The driver's shard let it go: it comes online where it stands, at its new shard.
            let online = handOver(id, ack.handover)
            await sendInWindow(.request(.driverOnline(online)), app: id, shard: Int(ack.handover.shard), handover: true)
            reply = .ack(Ack())
        default:
            break
        }
        guard let app = live[id], let now else { return }
        await dispatch(await app.receive(reply, answering: pending.body, at: now), of: app)
    }

    /// A request went unanswered for the timeout: asked again (same message id), or failed.
    private func timedOut(_ id: String) async {
        guard var pending = virtual?.pending[id] else { return }
        guard pending.attempt < (virtual?.attempts ?? 1) else {
            _ = virtual?.pending.remove(id)
            totals.failedRequests += 1
            guard !pending.handover, let appID = pending.app else { return }
            defer { settle(appID) }
            if let app = live[appID], let now {
                let reason = "no reply to \(id) after \(pending.attempt) attempts"
                let failure = Envelope.OneOf_Body.error(ErrorReply.with { $0.reason = reason })
                await dispatch(await app.receive(failure, answering: pending.body, at: now), of: app)
            }
            return
        }
        pending.attempt += 1
        pending.deadline = (now ?? 0) + (virtual?.timeout ?? 1)
        virtual?.pending.add(pending, id: id)
        await sendHeldLocations()
        await transmit(
            Envelope(pending.body, from: pending.stamp, simTimeMs: SimTime(seconds: now ?? 0).wireMilliseconds), to: pending.shard
        )
    }

    /// Sends what an app (or the host) sends to dispatch shard `shard`, inside the window being
    /// worked on. `handover`: the host's own DriverOnline for a handed-over driver.
    func sendInWindow(_ message: AppMessage, app: String?, shard: Int, handover: Bool = false) async {
        guard let state = virtual else { return }
        if case .message(.locationUpdate(let update)) = message {
            await send(state.heldLocations.hold(update, for: shard, at: state.now))
            return
        }
        await sendHeldLocations()
        let stamp = state.stamper.next()
        let now = state.now
        let time = SimTime(seconds: now).wireMilliseconds
        switch message {
        case .message(let body):
            await transmit(Envelope(body, from: stamp, simTimeMs: time), to: shard)
        case .request(let body):
            state.pending.add(
                VirtualHost.Pending(
                    app: app, body: body, stamp: stamp, attempt: 1, deadline: now + state.timeout, shard: shard,
                    handover: handover),
                id: stamp.messageID)
            if let app, !handover { inFlight[app, default: 0] += 1 }
            await transmit(Envelope(body, from: stamp, simTimeMs: time), to: shard)
        }
        totals.messagesOut += 1
    }

    /// Sends the location updates held back (``VirtualHost/heldLocations``).
    private func sendHeldLocations() async {
        guard let state = virtual, !state.heldLocations.isEmpty else { return }
        await send(state.heldLocations.release())
    }

    private func send(_ released: [HeldLocations.Release]) async {
        guard let state = virtual else { return }
        for message in released {
            let time = SimTime(seconds: message.time).wireMilliseconds
            await transmit(Envelope(message.body, from: state.stamper.next(), simTimeMs: time), to: message.shard)
            totals.messagesOut += 1
        }
    }

    /// Numbers the envelope on the link to dispatch shard `shard`'s current life and sends it,
    /// through the fault layer (drops, copies and delays in simulated time).
    private func transmit(_ envelope: Envelope, to shard: Int) async {
        guard dealers.indices.contains(shard), let state = virtual else { return }
        let fate = state.faults.faults.isEmpty ? (copies: 1, delay: nil) : state.faults.next()
        guard fate.copies > 0 || fate.delay != nil else { return }
        var envelope = envelope
        if let delay = fate.delay { envelope.simTimeMs += Int64((delay / .milliseconds(1)).rounded()) }
        envelope.senderLife = state.life
        // Each copy of a duplicated message is a message of its own on the link, so that the
        // window it is due in waits for it too: a copy that came after its window was done would
        // be handed out whenever it happened to arrive.
        for _ in 0..<max(1, fate.copies) {
            let sent = state.participant.send(to: state.shards[shard], at: envelope.simTime)
            envelope.receiverLife = sent.life
            envelope.link = sent.link
            state.outgoing[shard].append(Message(WireCodec.encode(envelope)))
        }
    }

    /// Hands each DEALER what the window sent to its shard.
    private func sendOutgoing() async {
        guard let state = virtual else { return }
        for shard in state.outgoing.indices where !state.outgoing[shard].isEmpty && dealers.indices.contains(shard) {
            let messages = state.outgoing[shard]
            state.outgoing[shard] = []
            try? await dealers[shard].send(contentsOf: messages)
        }
    }

    /// The window report, to the keeper on the window link (a host publishes nothing the
    /// recording waits for).
    private func publish(_ report: WindowReport) async throws {
        await sendOutgoing()
        guard let windowLink, let stamp = virtual?.reports.next() else { return }
        // Nothing dispatch sends now is due before the next opening: read then, in one wake-up
        // with it, instead of waking for each (what came already is read now, while the opening
        // is on its way). Held before the report leaves, so that the opening it brings cannot
        // come first.
        for dealer in dealers { dealer.holdInput(until: windowLink, readingFirst: true) }
        let envelope = Envelope(.windowDone(WindowDone(report)), from: stamp)
        try await windowLink.send(Message(Frames.Published(topic: Topic.windowDone, envelope: envelope).frames))
    }
}

/// The simulated time a host's leak detector reads: set by the host's actor before each event it
/// handles, read only by that actor's detector (never shared across actors).
final class VirtualNow {
    var seconds: Double = 0
    var duration: Duration { .milliseconds(Int64(seconds * 1000)) }
}
