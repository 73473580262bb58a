import Foundation
import Monitor
import ProcessSupport
import Randomness
import SimulatedTime
import Topology
import Wire
import ZeroMQ

/// `ribcity launch`: hosts the event bus, starts the plan's processes in order, each once the one
/// before is ready, supervises them (restarts with backoff, per the plan), and shuts everything
/// down in reverse order when the rider processes have finished, on ``stop()``, at the wall-time
/// limit, or when a process that cannot be restarted dies. Follows the bus for the summary.
public actor Coordinator {
    public struct Options: Sendable {
        /// Wall time after which the run is stopped.
        public var wallLimit: Duration = .seconds(600)
        public var readyTimeout: Duration = .seconds(180)
        /// How long the run waits, once every rider process has finished, for the rides still open
        /// on the bus (those of killed rider processes end when their restarts say Hello, or their
        /// sessions expire).
        public var settleGrace: Duration = .seconds(20)
        /// How long a process may take to stop after SIGTERM before it is killed.
        public var stopGrace: Duration = .seconds(10)
        /// Fault injection: processes to kill (SIGKILL) this long after the city is up (dispatch
        /// among them: restarted, it restores the run from its journal).
        public var kills: [(name: String, after: Duration)] = []
        /// The monitor's output goes to the terminal instead of its log.
        public var monitorToTerminal = false
        /// Record every bus message to `events.pb` in the run directory (stress runs always do).
        public var record = false
        /// With a web monitor: how long its page stays up after the run's summary is written.
        public var webLinger: Duration?
        /// Faults to inject (stress mode).
        public var chaos = ChaosPlan()
        /// A key directory made beforehand (`ribcity keys`) instead of fresh keys in the run
        /// directory: a city across hosts, where every host holds the same keys.
        public var keys: String?
        /// Awaited once, after the processes before the first rider or driver process have been
        /// started and before it is: `ribcity launch` draws the run's rides meanwhile, while
        /// dispatch loads its roads. Its error fails the run.
        public var beforeHosts: (@Sendable () async throws -> Void)?
        public init() {}
    }

    public let plan: LaunchPlan
    public let directory: RunDirectory
    private let options: Options
    private let supervisor: Supervisor
    private let board = BoardKeeper()
    private let readiness = ReadinessBoard()
    private var stopRequested = false
    private var chaosCounts = ChaosCounts()
    /// When dispatch was killed on purpose, until it serves again (its recovery time).
    private var dispatchKilledAt: ContinuousClock.Instant?
    /// When simulated time was 0 for every dispatch shard on the wall clock (Unix milliseconds).
    private var clockOriginMs: Int64?
    private var log: (String) -> Void
    private let notices: AsyncStream<String>
    private let noticed: AsyncStream<String>.Continuation
    /// Virtual time's keeper, in a virtual-time run.
    private var timeKeeper: TimeKeeper?
    /// The run's key directory for processes' environments (CURVE on).
    private var keyEnvironment: [String: String]?

    public init(
        plan: LaunchPlan, directory: RunDirectory, executable: URL, options: Options,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.plan = plan
        self.directory = directory
        self.options = options
        // Every line of the launch's log is also a notice on the bus, for the monitor's panel.
        let (notices, noticed) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(256))
        self.notices = notices
        self.noticed = noticed
        let logging: @Sendable (String) -> Void = { line in
            log(line)
            noticed.yield(line)
        }
        self.log = logging
        let remote = plan.processes.reduce(into: [String: Topology.Host]()) { hosts, spec in hosts[spec.name] = spec.host }
        supervisor = Supervisor(
            executable: executable, directory: directory, readiness: readiness,
            remote: .init(hosts: remote, topologyCRC: FileChecksum.crc32(ofFile: plan.topologyPath) ?? 0), log: logging)
    }

    /// Ends the run (Ctrl-C, SIGTERM): processes stop in reverse order.
    public func stop() { stopRequested = true }

    /// Runs the city and returns its summary (also written to the run directory). The
    /// transport is shut down on every way out, a throw included.
    public func run() async throws -> RunSummary {
        try await Transport.using(name: "launch-io") { transport in try await run(on: transport) }
    }

    private func run(on transport: Transport) async throws -> RunSummary {
        let started = ContinuousClock.now
        // The bus proxy is the coordinator's: over CURVE its key is the bus's.
        var busOptions = SocketOptions.eventBus
        if plan.topology.usesCurve {
            busOptions.curve = .server(try await secure(transport))
        }
        // Over CURVE the bus knows who publishes each message, and forwards only what that process may say.
        var admit: Proxy.Admission?
        if plan.topology.usesCurve {
            admit = { @Sendable publisher, frames in BusPolicy.refusal(publisher: publisher, frames: frames) }
        }
        let proxy = try await Proxy.start(
            on: transport,
            frontend: .init(.xsub, bind: plan.topology.endpoints.listening(on: plan.busPublish), options: busOptions),
            backend: .init(.xpub, bind: plan.topology.endpoints.listening(on: plan.busSubscribe), options: busOptions),
            admit: admit)
        // The proxy stops before the transport does: a tap left to linger would spend a second
        // at every run's end trying to send its subscriptions to a proxy that is gone.
        var tapOptions = SocketOptions.eventBus
        tapOptions.linger = .zero
        let tap = try await transport.socket(.sub, options: tapOptions)
        try await tap.connect(plan.busSubscribe)
        // Everything that describes the run (not the chaos flood, which only loads the proxy, nor
        // the coordinator's own notices, which no two runs share). In virtual time dispatch's
        // events come to the keeper over the window link instead: unless someone else
        // subscribes, dispatch's PUB sends them nowhere and the proxy forwards nothing.
        for prefix in [Topic.dispatch, Topic.status, Topic.ready, Topic.windowOpen, Topic.joinRequest, Topic.exit]
        where !(plan.virtual && prefix == Topic.dispatch) {
            try await tap.subscribe(prefix)
        }
        let noticeBoard = try await transport.socket(.pub, options: .eventBus)
        try await noticeBoard.connect(plan.busPublish)
        let publishingNotices = Task { [notices] in
            var stamper = SequenceStamper(sender: "coordinator-notices")
            for await text in notices {
                let envelope = Envelope(.notice(Notice.with { $0.text = text }), from: stamper.next())
                try? await noticeBoard.send(Message(Frames.Published(topic: Topic.notice, envelope: envelope).frames))
            }
        }
        // What the coordinator says to processes on other hosts: answers to their joins, stops.
        let controlBoard = try await transport.socket(.pub, options: .eventBus)
        try await controlBoard.connect(plan.busPublish)
        let (controls, control) = AsyncStream.makeStream(of: (String, Envelope.OneOf_Body).self)
        await supervisor.connect { topic, body in control.yield((topic, body)) }
        let publishingControls = Task {
            var stamper = SequenceStamper(sender: "coordinator-control")
            for await (topic, body) in controls {
                let envelope = Envelope(body, from: stamper.next())
                try? await controlBoard.send(Message(Frames.Published(topic: topic, envelope: envelope).frames))
            }
        }
        let recorder = options.record ? try EventLog.Writer(path: directory.file("events.pb")) : nil
        // In virtual time the recording of dispatch's events comes in a fixed order from the keeper;
        // processes' health (which no two runs share: CPU, memory) goes to a file of its own.
        let statusLog = options.record && plan.virtual ? try EventLog.Writer(path: directory.file("status.pb")) : nil
        // What describes the run, for the board and the tables: from the bus, and in virtual time
        // dispatch's events from the keeper, in the recording's order.
        let (feed, feeder) = AsyncStream.makeStream(of: [Envelope].self)
        var servingWindows: Task<Void, Never>?
        if plan.virtual {
            // The window link: a ROUTER of the coordinator's, beside the bus (over CURVE, the bus's key).
            var linkOptions = SocketOptions()
            linkOptions.curve = busOptions.curve
            linkOptions.linger = .zero
            linkOptions.maximumMessageBytes = 1 << 20
            // Dispatch's events come this way too, a matching round's worth at once.
            linkOptions.receiveHighWaterMark = 100_000
            let link = try await transport.socket(.router, options: linkOptions)
            _ = try await link.bind(plan.topology.endpoints.listening(on: plan.windows))
            let keeper = TimeKeeper(
                participants: plan.participants,
                settings: .init(
                    latency: SimDuration(wireMilliseconds: plan.topology.latencyMs),
                    finishers: Set(plan.processes.filter(\.finishesRun).map(\.name)),
                    skippable: Set(plan.processes.filter(\.hostsApps).map(\.name))),
                link: link
            ) { envelopes in
                await recorder?.append(envelopes)
                feeder.yield(envelopes)
            }
            timeKeeper = keeper
            servingWindows = Task(executorPreference: transport.executor) { await keeper.serve() }
        }
        let keeper = timeKeeper
        // The run's data for analysts, written as it goes: a row per request as it ends, the
        // drivers' table now and then.
        let tables = try RunTables(directory: directory, clock: ClockTimeOfDay(startSecondOfDay: plan.topology.startSecondOfDay))
        let finals = FinalStatuses()
        let tapping = Task(executorPreference: transport.executor) {
            do {
                for try await batch in tap.batches() {
                    let envelopes = batch.compactMap { try? Frames.Published(frames: $0.frames).envelope }
                    if keeper != nil {
                        await statusLog?.append(envelopes.filter(Self.isHealth))
                    } else {
                        await recorder?.append(envelopes)
                    }
                    feeder.yield(envelopes)
                }
            } catch {}
        }
        // Off the I/O thread, where the window keeper answers reports: a window's opening never
        // waits behind the tables.
        let reader = Task(executorPreference: globalConcurrentExecutor) { [board, readiness, supervisor] () -> RunTables in
            var tables = tables
            for await envelopes in feed {
                await board.apply(envelopes)
                await readiness.apply(envelopes)
                await supervisor.heard(envelopes)
                let finished = FinalStatuses.finished(in: envelopes)
                if !finished.isEmpty { await finals.note(finished: finished) }
                tables.apply(envelopes)
            }
            return tables
        }
        var outcome = RunOutcome.stopped
        do {
            outcome = try await startAndSupervise(transport: transport)
        } catch {
            outcome = .failed("\(error)")
        }
        // Stopping the processes ends what is open (riders cancel, sessions close): an interrupted
        // run's counts are as they stood before.
        let atInterruption = outcome == .stopped ? MonitorReport(await board.current) : nil
        for spec in plan.processes.reversed() where !spec.outlivesRun {
            await supervisor.stop(spec.name, grace: options.stopGrace)
        }
        // The last status reports and events are on their way through the bus: each process's
        // final status comes after everything else it published (one PUB keeps its order).
        _ = await finals.wait(for: Set(plan.processes.filter(\.participates).map(\.name)), atMost: .milliseconds(300))
        noticed.finish()
        await publishingNotices.value
        control.finish()
        await publishingControls.value
        tapping.cancel()
        await tapping.value
        servingWindows?.cancel()
        // The rest of dispatch's events, in order, to the recording and the tables.
        await timeKeeper?.close()
        feeder.finish()
        var finishedTables = await reader.value
        finishedTables.finish(
            openAs: atInterruption != nil ? "ended by the shutdown" : "open", at: await board.current.simTimeMs)
        await recorder?.close()
        await statusLog?.close()
        await proxy.stop()
        // A killed process leaves its ipc socket files behind: the run's are the run's to remove.
        for endpoint in plan.sessions + plan.localSessions + [plan.busPublish, plan.busSubscribe, plan.windows] {
            for scheme in ["ipc://", "unix://"] where endpoint.hasPrefix(scheme) {
                try? FileManager.default.removeItem(atPath: String(endpoint.dropFirst(scheme.count)))
            }
        }
        var summary = RunSummary(
            topology: plan.topology.name, outcome: outcome, wallSeconds: (ContinuousClock.now - started) / .seconds(1),
            speed: plan.speed, kpis: MonitorReport(await board.current), processes: await supervisor.records,
            poolCapacity: plan.topology.dispatch.poolCapacity, atInterruption: atInterruption)
        summary.virtualTime = await timeKeeper?.report
        summary.startSecondOfDay = plan.topology.startSecondOfDay
        summary.coordinator = .current()
        let refusals = proxy.refusals
        if admit != nil {
            summary.busRefused = refusals.count
            summary.busRefusalExamples = refusals.first.map { "\($0.publisher): \($0.reason)" }
        }
        for refusal in refusals.first.prefix(5) { log("bus: refused a publication from \(refusal.publisher): \(refusal.reason)") }
        if options.record {
            summary.chaos = chaosCounts
            summary.verdict = try Self.verdict(of: directory, summary: summary)
        }
        try directory.write(summary.json + "\n", to: "summary.json")
        try directory.write(summary.text + "\n", to: "summary.txt")
        // The web monitor reads the summary when it is stopped, and shows it to its pages.
        if let linger = options.webLinger, plan.processes.contains(where: \.outlivesRun) {
            log("web: the page stays up \(Int(linger / .seconds(1))) s more (Ctrl-C to end)")
            try? await Task.sleep(for: linger)
        }
        for spec in plan.processes where spec.outlivesRun {
            await supervisor.stop(spec.name, grace: options.stopGrace)
        }
        return summary
    }

    private func startAndSupervise(transport: Transport) async throws -> RunOutcome {
        var beforeHosts = options.beforeHosts
        for stage in plan.startStages {
            for spec in stage {
                if spec.hostsApps, let waiting = beforeHosts.take() { try await waiting() }
                try await supervisor.start(
                    spec.name, executable: spec.executable, arguments: startArguments(of: spec), toTerminal: toTerminal(spec))
            }
            for spec in stage {
                try await supervisor.waitUntilReady(spec.name, timeout: options.readyTimeout)
                log("\(spec.name) ready (pid \(await supervisor.records[spec.name]?.pid ?? 0))")
            }
        }
        if let timeKeeper {
            for (time, name) in options.kills.map({ ($0.after / .seconds(1), $0.name) }) {
                await timeKeeper.planKill(of: name, at: SimTime(seconds: time))
            }
            for (time, name) in randomKillsInSimulatedTime() { await timeKeeper.planKill(of: name, at: time) }
            for name in plan.participants { await timeKeeper.joined(name, life: await life(of: name)) }
            log("virtual time: \(plan.participants.count) participants, lookahead \(plan.topology.latencyMs) ms")
        }
        let garbageTransport = options.chaos.malformedPerSecond > 0 ? try await attackerTransport(MalformedSender.keyName) : nil
        let forgerTransport = options.chaos.forgePerSecond > 0 ? try await attackerTransport(Forger.keyName) : nil
        let malformed = Task { [plan, options] in
            guard let garbageTransport else { return 0 }
            var garbage = MalformedSender(
                endpoints: plan.sessions, perSecond: options.chaos.malformedPerSecond,
                random: SeededGenerator(seed: options.chaos.seed &+ 1))
            return await garbage.run(on: garbageTransport)
        }
        let flood = Task { [plan, options] in
            await BusFlooder(endpoint: plan.busPublish, perSecond: options.chaos.floodPerSecond).run(on: transport)
        }
        let forger = Task { [plan, options] in
            guard let forgerTransport else { return Forger.Tally() }
            var forger = Forger(
                sessions: plan.sessions, bus: plan.busSubscribe,
                // Without CURVE the bus cannot know who publishes: forging there proves nothing.
                busPublish: plan.topology.usesCurve ? plan.busPublish : nil, perSecond: options.chaos.forgePerSecond,
                random: SeededGenerator(seed: options.chaos.seed &+ 2))
            return await forger.run(on: forgerTransport)
        }
        func finishChaos() async {
            malformed.cancel()
            flood.cancel()
            forger.cancel()
            chaosCounts.malformedSent = await malformed.value
            chaosCounts.floodSent = await flood.value
            let forged = await forger.value
            chaosCounts.forgedSent = forged.sent
            chaosCounts.forgedRefused = forged.refused
            chaosCounts.forgedApplied = forged.applied
            chaosCounts.firstForgeryApplied = forged.firstApplied
            chaosCounts.forgedPublished = forged.published
            await garbageTransport?.shutdown()
            await forgerTransport?.shutdown()
            if let monitor { await supervisor.signal(monitor, SIGCONT) }
        }
        do {
            let outcome = try await supervise()
            await finishChaos()
            return outcome
        } catch {
            await finishChaos()
            throw error
        }
    }

    /// Carries out what ``RunSupervision`` decides, turn by turn, until the run is over.
    private func supervise() async throws -> RunOutcome {
        var supervision = RunSupervision(
            .init(
                processes: plan.processes, wallLimit: options.wallLimit, settleGrace: options.settleGrace,
                kills: plan.virtual ? [] : options.kills,
                chaos: plan.virtual ? options.chaos.withoutRandomKills : options.chaos),
            upAt: .now)
        while true {
            if let timeKeeper {
                await timeKeeper.nudge()
                for name in await timeKeeper.takeKillRequests() {
                    supervision.killing(name)
                    await kill(name)
                }
            }
            var running: Set<String> = []
            for spec in plan.processes where await supervisor.isRunning(spec.name) { running.insert(spec.name) }
            let lastExits = await supervisor.records.compactMapValues(\.exits.last)
            let timeStopped = if let timeKeeper { await timeKeeper.isFinished } else { true }
            let actions = try supervision.step(
                now: .now, running: running, lastExits: lastExits, openRides: await board.current.openRequests.count,
                stopRequested: stopRequested, timeStopped: timeStopped)
            for action in actions {
                switch action {
                case .end(let outcome):
                    return outcome
                case .kill(let name):
                    await kill(name)
                case .stallMonitor(let name):
                    log("chaos: stalling the monitor for \(options.chaos.stallFor)")
                    await supervisor.signal(name, SIGSTOP)
                    chaosCounts.monitorStalls += 1
                case .resumeMonitor(let name):
                    await supervisor.signal(name, SIGCONT)
                case .finished(let name):
                    log("\(name) finished")
                    await timeKeeper?.exited(name)
                case .restart(let name, let backoff):
                    try await restart(name, after: backoff, lastExit: lastExits[name])
                }
            }
            // A dead process is seen within this (it is part of a dispatch's recovery time); a
            // turn costs a few actor calls.
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// What `spec` is started with (``LaunchPlan/startArguments(of:clockOriginMs:)``): the shards'
    /// shared clock origin is the moment the first of them was started.
    private func startArguments(of spec: ProcessSpec) -> [String] {
        guard plan.needsClockOrigin(spec) else { return spec.arguments }
        let origin = clockOriginMs ?? WallOrigin.now()
        clockOriginMs = origin
        return plan.startArguments(of: spec, clockOriginMs: origin)
    }

    /// Starts a process that died again, after `backoff`, and waits until it is ready.
    private func restart(_ name: String, after backoff: Duration, lastExit: Supervisor.Exit?) async throws {
        guard let spec = plan.processes.first(where: { $0.name == name }) else { return }
        // When it died, on the simulated clock: what was due before was its own to do
        // (and dispatch ends it with its session); what falls due after, the new run does.
        var simulated = SimTime(wireMilliseconds: await board.current.simTimeMs).seconds
        if let timeKeeper { simulated = await timeKeeper.reached.seconds }
        log("\(name) \(lastExit.map { "\($0)" } ?? "exited"); restarting in \(backoff)")
        try await Task.sleep(for: backoff)
        try await supervisor.start(
            name, executable: spec.executable, arguments: startArguments(of: spec) + spec.restartArguments(simulated),
            toTerminal: toTerminal(spec))
        try await supervisor.waitUntilReady(name, timeout: options.readyTimeout)
        log("\(name) restarted (pid \(await supervisor.records[name]?.pid ?? 0))")
        await timeKeeper?.joined(name, life: await life(of: name))
        if spec.role == .dispatch, let killed = dispatchKilledAt {
            dispatchKilledAt = nil
            chaosCounts.dispatchRecoverySeconds.append((ContinuousClock.now - killed) / .seconds(1))
        }
    }
}

extension Coordinator {
    /// Stress mode's random kills in virtual time: drawn from the seed at simulated instants (the
    /// mean gap is `--kill-every` wall seconds at the topology's speed) over the topology's
    /// duration, each of a driver or rider process, so that a seed replays to the same faults.
    private func randomKillsInSimulatedTime() -> [(SimTime, String)] {
        guard let every = options.chaos.killEvery else { return [] }
        var random = SeededGenerator(seed: options.chaos.seed &+ 7_919)
        let hosts = plan.processes.filter(\.hostsApps).map(\.name)
        var kills: [(SimTime, String)] = []
        var time = 0.0
        while let victim = hosts.randomElement(using: &random) {
            time += RunSupervision.exponential(every * plan.speed, &random) / .seconds(1)
            guard time < plan.topology.duration else { break }
            kills.append((SimTime(seconds: time), victim))
        }
        return kills
    }

    /// Which life of process `name` is running: 1 for its first start, +1 per restart.
    private func life(of name: String) async -> UInt32 { UInt32(await supervisor.records[name]?.starts ?? 1) }

    /// Processes' health and control messages: what a virtual-time run keeps apart from the
    /// ordered recording of dispatch's events (window messages left out).
    static func isHealth(_ envelope: Envelope) -> Bool {
        switch envelope.body {
        case .processStatus?, .ready?: true
        default: false
        }
    }

    private func toTerminal(_ spec: ProcessSpec) -> Bool { spec.role == .monitor && options.monitorToTerminal }

    /// The role of the process called `name` in this run's plan.
    private func role(of name: String) -> Role? { plan.processes.first { $0.name == name }?.role }

    /// Makes the run's keys (one pair per process, the coordinator's, and the stress mode's
    /// hostile clients') in the run directory — or takes the directory made beforehand
    /// (``Options/keys``, a city across hosts) — hands every process the directory, and secures
    /// the coordinator's own transport.
    /// - Returns: the coordinator's pair (the bus's key).
    private func secure(_ transport: Transport) async throws -> CurveKeyPair {
        let names = plan.processes.map(\.name) + ["coordinator", Forger.keyName, MalformedSender.keyName]
        let keys: String
        if let prepared = options.keys {
            keys = URL(fileURLWithPath: prepared).standardizedFileURL.path
            for name in names { _ = try RunKeys.pair(of: name, in: keys) }
            log("CURVE on: the keys in \(keys) (every host holds the same)")
        } else {
            keys = URL(fileURLWithPath: directory.file("keys")).standardizedFileURL.path
            try RunKeys.generate(for: names, in: keys)
            log("CURVE on: keys for \(names.count) processes in \(keys)")
        }
        let environment = [RunKeys.environmentVariable: keys]
        await supervisor.setEnvironment(environment)
        self.keyEnvironment = environment
        try await RunKeys.secure(transport, as: "coordinator", servers: serverEndpoints, environment: environment)
        return try RunKeys.pair(of: "coordinator", in: keys)
    }

    /// Every name a run of `topology` may need a key for: each process it can have, the
    /// coordinator, and stress mode's hostile clients (what `ribcity keys` makes beforehand).
    public static func keyNames(for topology: Topology) -> [String] {
        ["recorder"] + WireIDs.dispatchProcesses(topology.dispatchShards)
            + (0..<topology.drivers.processes).map(WireIDs.driverProcess)
            + (0..<topology.riders.processes).map(WireIDs.riderProcess)
            + ["monitor", "web", "coordinator", Forger.keyName, MalformedSender.keyName]
    }

    /// Which process serves each endpoint the run's processes connect to.
    private var serverEndpoints: [String: String] {
        RunKeys.servers(sessions: plan.sessions, bus: [plan.busPublish, plan.busSubscribe, plan.windows])
    }

    /// A transport of its own for a hostile client of stress mode: over CURVE, with a key of its
    /// own that the run admits (valid credentials, wrong owner).
    private func attackerTransport(_ name: String) async throws -> Transport {
        let transport = try Transport(name: "\(name)-io")
        if let keyEnvironment {
            try await RunKeys.secure(transport, as: name, servers: serverEndpoints, environment: keyEnvironment)
        }
        return transport
    }

    /// The run's monitor process, if it has one.
    private var monitor: String? { plan.processes.first { $0.role == .monitor }?.name }

    /// Kills a process with SIGKILL (fault injection) and counts it.
    private func kill(_ name: String) async {
        log("chaos: killing \(name)")
        await supervisor.signal(name, SIGKILL)
        chaosCounts.kills.append(name)
        if role(of: name) == .dispatch {
            dispatchKilledAt = .now
            chaosCounts.malformedMayBeLost += Int(options.chaos.malformedPerSecond.rounded(.up))
        }
    }

    /// The verdict of a recorded run in `directory`: the recording's checks (dispatch's own among
    /// them, from its health reports), plus what the recording cannot know — whether every process
    /// killed came back, and how the run ended.
    public static func verdict(of directory: RunDirectory, summary: RunSummary) throws -> RunVerdict {
        var (recording, _) = try EventLog.read(path: directory.file("events.pb"))
        if FileManager.default.fileExists(atPath: directory.file("status.pb")) {
            recording += try EventLog.read(path: directory.file("status.pb")).envelopes
        }
        var verdict = RunVerdict(
            recording: recording, poolCapacity: summary.poolCapacity, malformedSent: summary.chaos?.malformedSent ?? 0,
            malformedMayBeLost: summary.chaos?.malformedMayBeLost ?? 0)
        let kills = summary.chaos?.kills ?? []
        let notBack = Set(kills).sorted().filter { name in
            let record = summary.processes[name]
            return (record?.restarts ?? 0) < kills.filter { $0 == name }.count
        }
        verdict.add(
            VerdictRow(
                check: "killed processes restarted", passed: notBack.isEmpty,
                detail: kills.isEmpty
                    ? "no process killed"
                    : notBack.isEmpty
                        ? "\(kills.count) kills, every one restarted" : "not restarted: \(notBack.joined(separator: ", "))"))
        if let chaos = summary.chaos, chaos.forgedSent > 0 {
            verdict.add(
                VerdictRow(
                    check: "forged commands refused, none applied",
                    passed: chaos.forgedApplied == 0 && chaos.forgedRefused > 0,
                    detail: "\(chaos.forgedSent) forged, \(chaos.forgedRefused) refused FORBIDDEN, \(chaos.forgedApplied) applied"
                        + (chaos.firstForgeryApplied.map { " (first: \($0))" } ?? "")))
        }
        if let chaos = summary.chaos, chaos.forgedPublished > 0 {
            // The recording is what subscribers got: a forged publication in it went through.
            let forwarded = recording.filter { $0.sender == Forger.busSender }.count
            let refused = summary.busRefused ?? 0
            verdict.add(
                VerdictRow(
                    check: "forged bus publications refused, none forwarded", passed: forwarded == 0 && refused > 0,
                    detail: "\(chaos.forgedPublished) published, \(refused) refused by the bus, \(forwarded) forwarded"))
        }
        verdict.add(VerdictRow(check: "the run completed", passed: summary.outcome.isCompleted, detail: "\(summary.outcome)"))
        return verdict
    }
}

/// Why supervision ended a run.
public enum SupervisionError: Error, CustomStringConvertible {
    case died(String, Supervisor.Exit?)
    case gaveUp(String, restarts: Int, within: Duration)

    public var description: String {
        switch self {
        case .died(let name, let exit): "\(name) \(exit.map { "\($0)" } ?? "exited"), and is not restarted"
        case .gaveUp(let name, let restarts, let window):
            "\(name) kept dying: gave up after \(restarts) restarts within \(window)"
        }
    }
}
