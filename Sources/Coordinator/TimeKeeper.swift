import Foundation
import SimulatedTime
import VirtualTime
import Wire
import ZeroMQ

/// The coordinator's keeper of virtual time: runs the ``WindowKeeper`` on the bus — openings out
/// on `control.window-open` (published again while a window waits, for subscribers that joined
/// late), reports in from `control.window-done` — and keeps the recording in a fixed order: what
/// the participants publish during a window is written, sorted by simulated time, sender and
/// sequence, once every report of the window is in.
actor TimeKeeper {
    /// The keeper runs on the I/O thread of its publisher's transport, where the bus tap reads:
    /// a window's last report and the next opening cross no other thread.
    nonisolated var unownedExecutor: UnownedSerialExecutor { publisher.executor.asUnownedSerialExecutor() }
    private var keeper: WindowKeeper
    private let publisher: Socket
    private var stamper = SequenceStamper(sender: "coordinator-window")
    private var held: [Envelope] = []
    private let record: @Sendable ([Envelope]) async -> Void
    private var lastProgress = ContinuousClock.now
    private(set) var finishedAt: SimTime?
    /// Wall time the keeper started, and the simulated time reached, for the rate.
    private let began = ContinuousClock.now
    private(set) var reached = SimTime.zero

    /// Participants whose process exited cleanly before the keeper saw their last report, and
    /// since when: taken as left once ``leaveGrace`` has passed without it (the report was lost).
    private var exitedUnannounced: [String: ContinuousClock.Instant] = [:]
    private let leaveGrace: Duration

    /// - Parameters:
    ///   - settings: the windows' settings, with the processes whose leaving ends the run (the
    ///     rider processes) as finishers.
    ///   - publisher: a PUB connected to the bus proxy's publisher side.
    ///   - leaveGrace: how long a clean exit may come before its process's last report.
    ///   - record: where the ordered recording goes.
    init(
        participants: [String], settings: WindowKeeper.Settings, publisher: Socket, leaveGrace: Duration = .seconds(10),
        record: @escaping @Sendable ([Envelope]) async -> Void
    ) {
        keeper = WindowKeeper(participants: participants, settings: settings)
        self.publisher = publisher
        self.leaveGrace = leaveGrace
        self.record = record
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

    /// Envelopes from the bus tap, in the order they came.
    func take(_ envelopes: [Envelope]) async {
        // After the end, nothing more is part of the run (the processes' stopping is not).
        guard finishedAt == nil else { return }
        for envelope in envelopes {
            switch envelope.body {
            case .windowDone(let done)?:
                await carryOut(keeper.reported(done.report))
            case .dispatchEvent?:
                held.append(envelope)
            default:
                break
            }
        }
    }

    /// Publishes the window in progress again if it has waited a while (a participant's
    /// subscription may not have been in place when it first went out). Call now and then.
    func nudge() async {
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
        await publish(opening)
    }

    /// The run ended before simulated time did (interrupted, or given up on): what arrived is
    /// written, in the fixed order, so that the recording keeps it.
    func close() async {
        guard finishedAt == nil else { return }
        await flush(before: nil)
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
            lateMessages: stats.late.values.reduce(0, +))
    }

    private func carryOut(_ actions: [WindowKeeper.Action]) async {
        guard finishedAt == nil else { return }
        for action in actions {
            switch action {
            case .open(let opening):
                await flush(before: opening.window.start)
                reached = max(reached, opening.window.start)
                lastProgress = .now
                await publish(opening)
            case .kill(let name):
                killRequests.append(name)
            case .finish(let time):
                await flush(before: nil)
                reached = max(reached, time)
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
    private func flush(before time: SimTime?) async {
        let due = held.filter { time == nil || $0.simTimeMs < time!.wireMilliseconds }
        guard !due.isEmpty else { return }
        held.removeAll { time == nil || $0.simTimeMs < time!.wireMilliseconds }
        await record(due.sorted { ($0.simTimeMs, $0.sender, $0.sequence) < ($1.simTimeMs, $1.sender, $1.sequence) })
    }

    private func publish(_ opening: WindowOpening) async {
        let envelope = Envelope(
            .windowOpen(WindowOpen(opening)), from: stamper.next(), simTimeMs: opening.window.start.wireMilliseconds)
        try? await publisher.send(Message(Frames.Published(topic: Topic.windowOpen, envelope: envelope).frames))
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

    /// Simulated seconds per wall second.
    public var rate: Double { wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0 }
}
