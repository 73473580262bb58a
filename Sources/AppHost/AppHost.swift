import AppRuntime
import Foundation
import RIBs
import SessionClient
import SimulatedTime
import Wire
import ZeroMQ

/// A rider or driver process: many apps, each on its own actor, over one session with dispatch
/// (one per shard when dispatch is sharded, each app's messages to the shard that owns it).
/// Starts apps when their time comes, hands each what dispatch sends it (by rider or driver id),
/// ticks them so their people act, sends what they send (requests with the session's Lazy Pirate
/// retries, replies routed back to the app), heartbeats, publishes its health on the bus, and
/// releases finished apps — expecting each to deallocate (a leak is counted, not fatal).
public actor AppHost {
    /// A host runs on its transport's I/O thread, and its apps beside it (see
    /// ``ZeroMQ/IOExecutor``): a message from dispatch reaches its app, and the app's answer the
    /// socket, on one thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { session.executor.asUnownedSerialExecutor() }
    public struct Settings: Sendable {
        /// The longest the host sleeps between looks at its apps' wake-up times (and heartbeats).
        public var tick: Duration = .milliseconds(50)
        /// Wall clock: the least the host sleeps before it looks again, so that apps due within
        /// it are ticked together. A host of a thousand moving drivers otherwise woke for each
        /// one's own instant, a thousand times a wall second, and paid a timer and two thread
        /// wake-ups for each (the largest part of its CPU); this way at most a hundred.
        public var minimumStep: Duration = .milliseconds(10)
        /// Wall clock: the least simulated time between two looks, whatever the speed (but never
        /// more than ``tick`` of wall time) — a host steps its apps no finer than a simulator
        /// with one-second steps (SUMO's default), as dispatch's own timers do at 20× and
        /// above. A wake-up is late by at most this much simulated time; at 30× it saves about
        /// a fifth of the hosts' CPU (docs/PERFORMANCE.md).
        public var minimumSimulatedStep: Double = 1
        /// How often every app is ticked whether it asked or not (wall time).
        public var sweep: Duration = .seconds(5)
        public var heartbeat: Duration = .seconds(1)
        public var status: Duration = .seconds(1)
        /// End the run once every scheduled app has started and finished (rider hosts).
        public var endWhenAllFinished = false
        /// Simulated seconds a released app (or a detached RIB) may take to go away.
        public var leakBudget: Double = 60
        /// Called with a line for every message in and out (`--trace`), for debugging a run.
        public var trace: (@Sendable (String) -> Void)?
        public init() {}

        /// How long the host sleeps before it looks at its apps again, when the next is due in
        /// `wait` of wall time (nil: none is) and the clock runs `speed` times wall time: until
        /// it is due, no longer than ``tick``, no shorter than ``minimumStep`` nor than
        /// ``minimumSimulatedStep`` of simulated time (itself capped at ``tick``).
        public func sleep(untilDue wait: Duration?, speed: Double) -> Duration {
            let simulatedFloor = Duration.seconds(minimumSimulatedStep / max(speed, .leastNonzeroMagnitude))
            let floor = max(minimumStep, min(simulatedFloor, tick))
            return max(floor, min(wait ?? tick, tick))
        }
    }

    /// What a host did, for its final report and for tests.
    public struct Totals: Sendable, Equatable {
        public var started = 0
        public var finished = 0
        public var messagesOut = 0
        public var messagesIn = 0
        /// Messages for an app this host does not have (a rider already released).
        public var unrouted = 0
        /// Requests that got no reply after every retry, or could not be sent.
        public var failedRequests = 0
        /// RIBs that finished apps detached and kept, plus finished apps that did not go away.
        public var leaks = 0
        /// Optional features apps switched off because they failed (the kill switch), by name.
        public var switchedOff: [String: Int] = [:]
    }

    public nonisolated let role: Role
    public nonisolated let processID: String
    public internal(set) var totals = Totals()
    /// The session with dispatch (shard 0's when sharded: its clock is the host's).
    let session: SessionClient
    /// One session per dispatch shard, in shard order (just ``session`` for one dispatch).
    let sessions: [SessionClient]
    /// Which shard each app talks to.
    var routing: ShardRouting
    /// Each driver app's last DriverOnline, to bring it online at the shard it is handed to.
    var onlineAs: [String: DriverOnline] = [:]
    /// Sharded: the highest leg number each driver app was given, by any shard. Every DriverOnline
    /// carries it, so that a shard the driver comes (back) to numbers its legs on from there: the
    /// app takes a leg numbered below one it has seen for a stale one.
    var legsSeen: [String: UInt32] = [:]
    let bus: Socket?
    let settings: Settings
    var schedule: [ScheduledApp]
    var live: [String: any HostedApp] = [:]
    /// When each app asked to be ticked next (simulated seconds).
    var wakes = WakeQueue()
    /// Requests on their way (retries included), per app: a finished app is expected to go away
    /// only once its last request is settled, since the request holds it until then.
    var inFlight: [String: Int] = [:]
    var releasing: [String: any HostedApp] = [:]
    /// Leaks the finished apps' own detectors found in their trees.
    var appLeaks = 0
    var clock: SessionClock?
    var released: LeakDetector?
    var stopping = false
    /// Virtual time: the task running the loops, cancelled by ``stop()``.
    var serving: Task<Void, any Error>?
    /// Virtual time: the window participant, the requests awaiting replies, the instant handled.
    var virtual: VirtualHost?
    /// Virtual time: the DEALER to each dispatch shard (to dispatch), and the clock the leak
    /// detector reads.
    var dealers: [Socket] = []
    /// Virtual time: the DEALER to the coordinator's window link (openings in, reports out).
    var windowLink: Socket?
    var box: VirtualNow?
    /// The latest any app was ticked after its wake-up time, since the last status report.
    private var lateness: Double = 0
    private var statusStamper: SequenceStamper
    /// Inspections have a sender of their own: they must not shift the status reports' numbers.
    var inspectionStamper: SequenceStamper

    /// - Parameters:
    ///   - session: the session with dispatch (not yet connected).
    ///   - bus: a PUB connected to the event bus for health reports, if there is a bus.
    ///   - schedule: the apps to run, in any order.
    public init(
        role: Role, processID: String, session: SessionClient, bus: Socket?,
        schedule: [ScheduledApp], settings: Settings = Settings()
    ) {
        self.init(
            role: role, processID: processID, sessions: [session], routing: .single, bus: bus, schedule: schedule,
            settings: settings)
    }

    /// A host of a sharded dispatch: one session per shard, in shard order, all on one transport.
    public init(
        role: Role, processID: String, sessions: [SessionClient], routing: ShardRouting, bus: Socket?,
        schedule: [ScheduledApp], settings: Settings = Settings()
    ) {
        precondition(!sessions.isEmpty && sessions.count == routing.shards, "one session per shard")
        precondition(
            sessions.allSatisfy { $0.executor === sessions[0].executor }, "every shard's session on the host's one transport")
        self.role = role
        self.processID = processID
        self.session = sessions[0]
        self.sessions = sessions
        self.routing = routing
        self.bus = bus
        self.settings = settings
        self.schedule = schedule.sorted { $0.at > $1.at }
        statusStamper = SequenceStamper(sender: processID + "-status")
        inspectionStamper = SequenceStamper(sender: processID + "-inspect")
    }

    /// Ends the run: apps are stopped (drivers go offline, waiting riders cancel), the session closes.
    public func stop() {
        stopping = true
        serving?.cancel()
    }

    /// Connects, runs until ``stop()`` (or, with `endWhenAllFinished`, until every app is done),
    /// then stops every app and closes the session.
    public func run() async throws {
        // As in virtual time (`runVirtual`), the loop prefers the I/O thread as its task's
        // executor: its sleeps and the waits it makes resume there, not on a global thread that
        // hops back to it (two thread wake-ups per wait).
        try await withTaskExecutorPreference(session.executor) { try await self.serveWallClock() }
    }

    /// Delivers what dispatch pushes on a session, on this actor (docs/ARCHITECTURE.md, "The
    /// transport": a loop off it switched executors twice a message).
    private func readPushes(of shard: SessionClient) async {
        for await envelope in shard.incoming { await deliver(envelope) }
    }

    private func serveWallClock() async throws {
        for shard in sessions { try await shard.connect() }
        guard let clock = await session.clock else { throw SessionClient.Failure.closed }
        self.clock = clock
        released = LeakDetector(budget: .milliseconds(Int64(settings.leakBudget * 1000))) {
            .milliseconds(Int64(clock.now() * 1000))
        }
        let readers = sessions.map { shard in
            Task(executorPreference: session.executor) { await self.readPushes(of: shard) }
        }
        var lastHeartbeat = ContinuousClock.now
        var lastStatus = ContinuousClock.now - settings.status
        var lastSweep = ContinuousClock.now
        while !stopping {
            // Sleep until the next app is due (a start or a wake-up), at most one tick.
            let due = [schedule.last?.at, wakes.earliest()].compactMap { $0 }.min()
            let wait = due.map { Duration.seconds(max(0, ($0 - clock.now()) / clock.speed)) }
            try await session.executor.sleep(for: settings.sleep(untilDue: wait, speed: clock.speed))
            let sweep = ContinuousClock.now - lastSweep >= settings.sweep
            if sweep { lastSweep = .now }
            await step(at: clock.now(), sweep: sweep)
            if ContinuousClock.now - lastHeartbeat >= settings.heartbeat {
                lastHeartbeat = .now
                for shard in sessions.indices { await send(.heartbeat(Heartbeat()), to: shard) }
            }
            if ContinuousClock.now - lastStatus >= settings.status {
                lastStatus = .now
                await publishStatus(at: clock.now())
            }
            if settings.endWhenAllFinished, schedule.isEmpty, live.isEmpty { break }
        }
        for id in live.keys.sorted() {
            guard let app = live[id] else { continue }
            let output = await app.stop(at: clock.now())
            await dispatch(output, of: app)
        }
        live = [:]
        await publishStatus(at: clock.now(), final: true)
        readers.forEach { $0.cancel() }
        for shard in sessions { await shard.close(reason: stopping ? "stopped" : "every app finished") }
    }

    /// Starts apps whose time has come and ticks those due (every live app on a sweep).
    func step(at time: Double, sweep: Bool) async {
        while let next = schedule.last, next.at <= time {
            schedule.removeLast()
            let app = next.make(time, self)
            live[app.id] = app
            totals.started += 1
            await dispatch(await app.start(at: time), of: app)
        }
        var popped: [String: Double] = [:]
        if !sweep {
            while let next = wakes.popDue(by: time) { popped[next.id] = next.time }
        }
        let due = sweep ? live.keys.sorted() : popped.keys.sorted()
        for id in due {
            // A wake-up set while an earlier app was ticking replaces the one popped, as before.
            let wake = wakes.remove(id) ?? popped[id]
            guard let app = live[id] else { continue }
            if let wake, wake <= time { lateness = max(lateness, time - wake) }
            await dispatch(await app.tick(at: time), of: app)
        }
        released?.check()
        totals.leaks = appLeaks + (released?.leakCount ?? 0)
    }

    /// What dispatch sent that is not a reply: to the app it names.
    func deliver(_ envelope: Envelope) async {
        totals.messagesIn += 1
        settings.trace?(
            String(format: "%.1f in  ", now ?? 0) + "\(envelope.bodyName) \(envelope.body.flatMap(Self.appID) ?? "")")
        guard let body = envelope.body, let id = Self.appID(of: body), let app = live[id], let now else {
            totals.unrouted += 1
            return
        }
        if case .driveTo(let drive) = body, routing.shards > 1 { legsSeen[id] = max(legsSeen[id] ?? 0, drive.leg) }
        await dispatch(await app.receive(body, at: now), of: app)
    }

    /// Sends what an app sent; releases it if it finished.
    func dispatch(_ output: AppOutput, of app: any HostedApp) async {
        for feature in output.switchedOff { totals.switchedOff[feature, default: 0] += 1 }
        for message in output.messages {
            settings.trace?(String(format: "%.1f out ", now ?? 0) + "\(app.id) \(message.body)")
            // The shard is chosen now, in the order the app sent: a ride request's pickup names it.
            let shard = routing.shard(for: message.body, of: app.id)
            var message = message
            if case .driverOnline(var online) = message.body {
                if routing.shards > 1 { online.legsIssued = max(online.legsIssued, legsSeen[app.id] ?? 0) }
                onlineAs[app.id] = online
                if case .request = message {
                    message = .request(.driverOnline(online))
                } else {
                    message = .message(.driverOnline(online))
                }
            }
            if virtual != nil {
                await sendInWindow(message, app: app.id, shard: shard)
                continue
            }
            switch message {
            case .message(let body): await send(body, to: shard)
            case .request(let body):
                totals.messagesOut += 1
                inFlight[app.id, default: 0] += 1
                Task(executorPreference: session.executor) { await self.request(body, for: app, at: shard) }
            }
        }
        // An app's answer may arrive after it was released (a reply it was waiting for): then
        // it wants nothing more, least of all a wake-up that would never be cleared.
        // A wake-up already past (a leg that should have ended) is due now, not late.
        // In virtual time a wake-up asked for at the instant being handled (or before) comes a
        // millisecond later: time only moves when the host moves it.
        let soonest = virtual.map { $0.now + 0.001 } ?? now
        if let wake = output.wakeAt.map({ max($0, soonest ?? $0) }), live[app.id] != nil {
            wakes.wake(app.id, at: wake)
        }
        if output.finished, live[app.id] != nil {
            live[app.id] = nil
            routing.forget(app.id)
            onlineAs[app.id] = nil
            legsSeen[app.id] = nil
            wakes.remove(app.id)
            totals.finished += 1
            appLeaks += await app.leakCount()
            if inFlight[app.id, default: 0] > 0 { releasing[app.id] = app } else { released?.expectDeallocate(app, path: app.id) }
        }
    }

    private func request(_ body: Envelope.OneOf_Body, for app: any HostedApp, at shard: Int) async {
        let reply: Envelope.OneOf_Body
        do {
            reply = try await ask(body, for: app.id, at: shard)
        } catch {
            totals.failedRequests += 1
            reply = .error(ErrorReply.with { $0.reason = "\(error)" })
        }
        defer { settle(app.id) }
        totals.messagesIn += 1
        guard let clock, live[app.id] != nil else { return }
        await dispatch(await app.receive(reply, answering: body, at: clock.now()), of: app)
    }

    /// Simulated time now: the instant being handled in virtual time, the session's clock otherwise.
    var now: Double? { virtual?.now ?? clock?.now() }

    /// One request of `id` settled; a finished app with none left may now be expected to go.
    func settle(_ id: String) {
        inFlight[id, default: 1] -= 1
        guard inFlight[id] == 0 else { return }
        inFlight[id] = nil
        if let app = releasing.removeValue(forKey: id) { released?.expectDeallocate(app, path: id) }
    }

    /// Sends a request to `shard` and returns the reply. Sharded, it follows the shards' word: a
    /// shard that is not the owner names the one that is, and the request goes there; a driver
    /// handed over in the reply is brought online at its new shard before the app hears the reply.
    private func ask(_ body: Envelope.OneOf_Body, for app: String, at shard: Int) async throws -> Envelope.OneOf_Body {
        var shard = shard
        for _ in 0..<sessions.count {
            let reply = try await sessions[shard].request(body).body ?? .error(ErrorReply.with { $0.reason = "an empty reply" })
            switch reply {
            case .error(let error)
            where error.code == .notOwner && Int(error.shard) != shard && Int(error.shard) < sessions.count:
                shard = Int(error.shard)
                routing.handOver(app, to: shard)
            case .ack(let ack) where ack.hasHandover:
                try await takeOver(ack.handover, of: app)
                return .ack(Ack())
            default:
                return reply
            }
        }
        throw SessionClient.Failure.refused("no shard owns what \(app) asked")
    }

    /// A driver's shard let it go to another: the host brings it online there as it stands.
    private func takeOver(_ handover: DriverHandover, of app: String) async throws {
        let shard = Int(handover.shard)
        guard sessions.indices.contains(shard) else { throw SessionClient.Failure.refused("a handover to shard \(shard)") }
        let online = handOver(app, handover)
        totals.messagesOut += 1
        let reply = try await sessions[shard].request(.driverOnline(online))
        totals.messagesIn += 1
        if case .error(let error)? = reply.body {
            throw SessionClient.Failure.refused("\(handover.driverID) handed to shard \(shard): \(error.reason)")
        }
    }

    /// `app`'s driver handed to another shard (both clock modes): from now on its messages go
    /// there, and this is the DriverOnline that brings it online there — as the app last said it,
    /// where the driver stands, its legs numbered on from the highest it has seen.
    func handOver(_ app: String, _ handover: DriverHandover) -> DriverOnline {
        routing.handOver(app, to: Int(handover.shard))
        var online = onlineAs[app] ?? DriverOnline.with { $0.driverID = handover.driverID }
        online.location = handover.location
        online.legsIssued = max(handover.legsIssued, legsSeen[app] ?? 0)
        onlineAs[app] = online
        return online
    }

    private func send(_ body: Envelope.OneOf_Body, to shard: Int) async {
        do {
            try await sessions[shard].send(body)
            totals.messagesOut += 1
        } catch {
            totals.failedRequests += 1
        }
    }

    /// This process's health on its status topic; `final` once it has stopped serving
    /// (``ProcessStatus/final``).
    func publishStatus(at time: Double, final: Bool = false) async {
        guard let bus else { return }
        let status = ProcessStatus.current(
            role: role, processID: processID, messagesIn: totals.messagesIn, messagesOut: totals.messagesOut,
            apps: live.count, lagSeconds: lateness
        ) {
            $0.appsFinished = UInt64(totals.finished)
            $0.leaks = UInt64(totals.leaks)
            $0.switchedOff = totals.switchedOff.mapValues { UInt32(clamping: $0) }
            $0.final = final
        }
        lateness = 0
        var envelope = Envelope(.processStatus(status), from: statusStamper.next())
        envelope.simTime = SimTime(seconds: time)
        try? await bus.send(Message(Frames.Published(topic: Topic.status(of: processID), envelope: envelope).frames))
    }

    /// The rider or driver a message from dispatch is for (a rider's request id is their id).
    static func appID(of body: Envelope.OneOf_Body) -> String? {
        switch body {
        case .offer(let offer): offer.driverID
        case .driveTo(let drive): drive.driverID
        case .tripUpdate(let update): update.requestID
        case .sharedEta(let shared): shared.recipientID
        case .splitInvitation(let invitation): invitation.inviteeID
        case .fareSplit(let split): split.riderID
        default: nil
        }
    }
}
