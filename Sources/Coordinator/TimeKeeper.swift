import Foundation
import SimulatedTime
import VirtualTime
import Wire
import ZeroMQ

/// The coordinator's keeper of virtual time: runs the ``WindowKeeper`` over its window link (a
/// ROUTER each participant's DEALER connects to and says hello on: openings out, each with only
/// its receiver's expectations, reports in) and keeps the recording in a fixed order: dispatch
/// sends its events over the link before its report, and what came before a window's start is
/// written, sorted by simulated time, sender and sequence, when the window opens.
///
/// The link skips the bus proxy both ways, so a window's round trip crosses two processes'
/// threads instead of four, and dispatch's events cross no proxy to reach the recording
/// (docs/ARCHITECTURE.md, "Virtual time").
actor TimeKeeper {
    /// The keeper runs on the I/O thread of its link's transport: a window's last report and the
    /// next opening cross no other thread.
    nonisolated var unownedExecutor: UnownedSerialExecutor { link.executor.asUnownedSerialExecutor() }
    private var keeper: WindowKeeper
    private let link: Socket
    /// Where each participant's current life is on the link (its ROUTER identity), from its hello.
    private var peers: [String: (life: UInt32, identity: [UInt8])] = [:]
    /// The lives last sent to each participant's current life: an opening with the same lives
    /// leaves them out (a participant decodes an opening every window).
    private var livesSent: [String: UInt64] = [:]
    /// The lives of the last opening sent, and how many times they changed: which lives a
    /// participant was sent is remembered by that count, so an opening compares the lives once,
    /// not once for each participant it goes to.
    private var lives: (incarnations: [String: UInt32], generation: UInt64) = ([:], 0)
    private var stamper = SequenceStamper(sender: "coordinator-window")
    /// Dispatch's events since the last opening, still encoded: decoding, ordering and recording
    /// them is the orderer's, off this thread, so a window's last report and the next opening never
    /// wait behind them.
    private var held: [[UInt8]] = []
    /// The start of the last window opened, when what came before it is not handed to the
    /// orderer yet: it is handed over at most every ``flushInterval`` of wall time (and at each
    /// ``nudge()``), not at every window — the orderer gives out events published before the
    /// latest start, sorted by simulated time first, so handing over one bound or each one before
    /// it gives out the same events in the same order, with fewer wake-ups of its thread. And
    /// handed over at a report that leaves the window waiting, never as a window opens: waking
    /// the orderer's thread there let it take the core before the openings were written, and
    /// every process waited for them (about 0.2 ms each time, 0.3 s over a metro run).
    private var unflushedBefore: SimTime?
    private var lastFlush = ContinuousClock.now
    /// How long the recording, the tables and the coordinator's board may lag the windows (or
    /// until the next ``nudge()``, in a stretch of windows that each wait for one participant).
    static let flushInterval: Duration = .milliseconds(10)
    private let flushes: AsyncStream<(encoded: [[UInt8]], before: SimTime?)>.Continuation
    /// The orderer, which ends with how many of dispatch's messages it refused (not a dispatch
    /// event once decoded).
    private let orderer: Task<Int, Never>
    private var refusedEvents = 0
    private var lastProgress = ContinuousClock.now
    private(set) var finishedAt: SimTime?
    /// Wall time the keeper started, and the simulated time reached, for the rate.
    private let began = ContinuousClock.now
    private(set) var reached = SimTime.zero

    /// Participants whose process exited cleanly before the keeper saw their last report, and
    /// since when: taken as left once ``leaveGrace`` has passed without it (the report was lost).
    private var exitedUnannounced: [String: ContinuousClock.Instant] = [:]
    private let leaveGrace: Duration
    /// Messages on the link the keeper refused: not a participant's hello, report or (from
    /// dispatch) event, or, over CURVE, a report or hello in another process's name or events
    /// from a process that is not dispatch.
    private var refusedHere = 0
    /// (Those of dispatch's messages that do not decode to an event are counted by the orderer,
    /// and only in this sum once ``close()`` has waited for it.)
    var refused: Int { refusedHere + refusedEvents }

    /// - Parameters:
    ///   - settings: the windows' settings, with the processes whose leaving ends the run (the
    ///     rider processes) as finishers.
    ///   - link: a bound ROUTER, the window link.
    ///   - leaveGrace: how long a clean exit may come before its process's last report.
    ///   - record: where dispatch's events go, in the fixed order, as each window opens.
    init(
        participants: [String], settings: WindowKeeper.Settings, link: Socket, leaveGrace: Duration = .seconds(10),
        record: @escaping @Sendable ([Envelope]) async -> Void
    ) {
        keeper = WindowKeeper(participants: participants, settings: settings)
        self.link = link
        self.leaveGrace = leaveGrace
        let (flushed, flushes) = AsyncStream.makeStream(of: (encoded: [[UInt8]], before: SimTime?).self)
        self.flushes = flushes
        orderer = Task(executorPreference: globalConcurrentExecutor) {
            var order = WindowEventOrder()
            for await flush in flushed {
                order.add(flush.encoded)
                let due = order.take(before: flush.before)
                if !due.isEmpty { await record(due) }
            }
            return order.refused
        }
    }

    var statistics: WindowKeeper.Statistics { keeper.statistics }
    /// Whether simulated time has ended and the last window is written to the recording.
    var isFinished: Bool { finishedAt != nil }

    /// Plans a kill at a simulated instant (stress mode).
    func planKill(of name: String, at time: SimTime) { keeper.planKill(of: name, at: time) }

    /// A participant's life began.
    func joined(_ name: String, life: UInt32) async {
        await carryOut(keeper.joined(ParticipantID(name, incarnation: life)))
    }

    /// A participant's process exited cleanly (a rider process whose apps have all finished).
    /// Its last report said it leaves, and the keeper acts on that report, whose place among the
    /// windows is fixed, not on this exit, whose moment is not: only should that report be lost
    /// does the participant count as left, ``leaveGrace`` after its exit.
    func exited(_ name: String) {
        guard !keeper.hasLeft(name) else { return }
        exitedUnannounced[name] = exitedUnannounced[name] ?? .now
    }

    /// Reads the window link until it closes: hellos and reports, acted on as they come.
    func serve() async {
        do {
            for try await batch in link.batches() {
                for message in batch { await heard(message) }
            }
        } catch {}
    }

    private func heard(_ message: Message) async {
        guard message.frameCount == 3 else { return refusedHere += 1 }
        // Taken once: a message received in a batch copies its frames out at each ask.
        let rest = message.rest
        // Dispatch's events are only looked at by topic here (who may send them over CURVE).
        if let topic = UTF8Text.validated(rest[0]), topic.hasPrefix(Topic.dispatch) {
            guard message.userID.map({ BusPolicy.refusal(publisher: $0, topic: topic) { nil } == nil }) ?? true else {
                return refusedHere += 1
            }
            // After the end nothing more is part of the run (the processes' stopping is not).
            if finishedAt == nil { held.append(rest[1]) }
            return
        }
        guard let published = try? Frames.Published(frames: rest) else { return refusedHere += 1 }
        let identity = message.first
        let envelope = published.envelope
        // Over CURVE a participant speaks only for itself: its key names it.
        func isOwn(_ name: String) -> Bool { message.userID.map { $0 == name } ?? true }
        switch envelope.body {
        case .windowHello(let hello)? where isOwn(hello.processID):
            guard (peers[hello.processID]?.life ?? 0) <= hello.life else { return }
            peers[hello.processID] = (hello.life, identity)
            livesSent[hello.processID] = nil
            if let opening = keeper.current, opening.incarnations[hello.processID] == hello.life,
                opening.recipients?.contains(hello.processID) ?? true
            {
                await send(opening, to: [hello.processID])
            }
        case .windowDone(let done)? where isOwn(done.processID):
            guard let report = done.report else { return refusedHere += 1 }
            let actions = keeper.reported(report)
            guard actions.isEmpty else { return await carryOut(actions) }
            if ContinuousClock.now - lastFlush >= Self.flushInterval { flushOpened() }
        default:
            refusedHere += 1
        }
    }

    /// Sends the window in progress again if it has waited a while, and takes participants whose
    /// last report was lost as left. Call now and then.
    func nudge() async {
        flushOpened()
        for (name, exit) in exitedUnannounced.sorted(by: { $0.key < $1.key }) {
            if keeper.hasLeft(name) {
                exitedUnannounced[name] = nil
            } else if ContinuousClock.now - exit > leaveGrace {
                exitedUnannounced[name] = nil
                await carryOut(keeper.left(name))
            }
        }
        guard finishedAt == nil, let opening = keeper.current, ContinuousClock.now - lastProgress > .milliseconds(250) else {
            return
        }
        lastProgress = .now
        // Sent again whole: whatever came before it, the lives are in it.
        for name in opening.addressees { livesSent[name] = nil }
        await send(opening, to: opening.addressees)
    }

    /// The run ended before simulated time did (interrupted, or given up on): what arrived is
    /// written, in the fixed order, so that the recording keeps it.
    func close() async {
        if finishedAt == nil { flush(before: nil) }
        flushes.finish()
        refusedEvents = await orderer.value
    }

    /// What the run's summary says of virtual time.
    var report: VirtualTimeReport {
        let wall = (ContinuousClock.now - began) / .seconds(1)
        let stats = keeper.statistics
        let total = max(1, stats.waitedFor.values.reduce(0, +))
        let bottleneck = stats.waitedFor.max { ($0.value, $1.key) < ($1.value, $0.key) }
        return VirtualTimeReport(
            windows: stats.windows, simulatedSeconds: reached.seconds, wallSeconds: wall,
            bottleneck: bottleneck?.key ?? "", bottleneckShare: Double(bottleneck?.value ?? 0) / Double(total),
            skippedSeconds: stats.skipped.seconds, crashes: stats.crashes.values.reduce(0, +),
            busySeconds: stats.busy.mapValues { $0 / .seconds(1) }, pacedBy: stats.pacedBy,
            lateMessages: stats.late.values.reduce(0, +), satOut: stats.satOut)
    }

    private func carryOut(_ actions: [WindowKeeper.Action]) async {
        guard finishedAt == nil else { return }
        for action in actions {
            switch action {
            case .open(let opening):
                reached = max(reached, opening.window.start)
                lastProgress = .now
                await send(opening, to: opening.addressees)
                // Every report of the last window is in, and dispatch's events came before its report.
                unflushedBefore = opening.window.start
            case .kill(let name):
                killRequests.append(name)
            case .finish(let time):
                reached = max(reached, time)
                flush(before: nil)
                finishedAt = time
            }
        }
    }

    /// Kills the keeper asked for and the coordinator has not yet carried out.
    private(set) var killRequests: [String] = []
    func takeKillRequests() -> [String] {
        defer { killRequests = [] }
        return killRequests
    }

    /// Writes what was published before `time` (everything, with `nil`), in the fixed order.
    private func flush(before time: SimTime?) {
        flushes.yield((held, time))
        held = []
        unflushedBefore = nil
        lastFlush = .now
    }

    /// Writes what was published before the last window opened.
    private func flushOpened() {
        if let time = unflushedBefore { flush(before: time) }
    }

    /// Sends `opening` to each of `names` in the life it is for, with only its own expectations.
    private func send(_ opening: WindowOpening, to names: [String]) async {
        let stamp = stamper.next()
        let addressees = names.compactMap { name in
            peers[name].flatMap { opening.incarnations[name] == $0.life ? (name: name, identity: $0.identity) : nil }
        }
        var messages: [Message] = []
        if opening.incarnations != lives.incarnations { lives = (opening.incarnations, lives.generation + 1) }
        let generation = lives.generation
        let opens = WindowOpen.each(opening, for: addressees.map(\.name)) { livesSent[$0] != generation }
        for addressee in addressees { livesSent[addressee.name] = generation }
        for (open, addressee) in zip(opens, addressees) {
            let envelope = Envelope(.windowOpen(open), from: stamp, simTimeMs: opening.window.start.wireMilliseconds)
            var message = Message(addressee.identity)
            message.rest = Frames.Published(topic: Topic.windowOpen, envelope: envelope).frames
            messages.append(message)
        }
        try? await link.send(contentsOf: messages)
    }
}

/// Virtual time in a run's summary.
public struct VirtualTimeReport: Codable, Sendable, Equatable {
    public var windows: UInt64
    public var simulatedSeconds: Double
    public var wallSeconds: Double
    /// The participant the windows waited for most, and the share of windows it was last in.
    public var bottleneck: String
    public var bottleneckShare: Double
    /// Simulated time jumped over because nobody had anything to do.
    public var skippedSeconds: Double
    public var crashes: UInt64
    /// Wall seconds each participant spent working on windows (the rest of the wall time it waited).
    public var busySeconds: [String: Double]
    /// How many windows each participant's own next event opened (what sets the pace); absent
    /// from summaries written before it was counted.
    public var pacedBy: [String: UInt64]?
    /// Messages delivered before their time (only after a crash broke the protocol: such a run is
    /// not replayable); absent from summaries written before it was counted.
    public var lateMessages: UInt64?
    /// Windows each rider and driver process sat out, nothing of its own being due in them;
    /// absent from summaries written before processes could.
    public var satOut: [String: UInt64]?

    /// Simulated seconds per wall second.
    public var rate: Double { wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0 }
}
