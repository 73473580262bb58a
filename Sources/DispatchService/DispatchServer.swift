import City
import Foundation
import RideDispatch
import Wire
import ZeroMQ

/// The dispatch process: the desk behind a ROUTER (sessions; ROUTER_MANDATORY on) and a PUB (the
/// event bus), with a simulated clock running `speed` times wall time. Answers snapshot requests
/// itself, since it knows the bus sequence a snapshot is current to.
public actor DispatchServer {
    public nonisolated let speed: Double
    private let desk: DispatchDesk
    private let router: Socket
    private let bus: Socket
    private let started: ContinuousClock.Instant
    private var stampers = Stampers()
    private var malformed = WireErrorCounts()
    private var undeliverable = 0
    /// How late (simulated seconds) the engine's timers ran since the last status report.
    private var lateness: Double = 0
    private var publishQueue: [Message] = []
    private var publishing = false
    /// Events published on the bus, by kind.
    public private(set) var published: [DispatchEventKind: Int] = [:]
    private var stopped = false

    /// - Parameters:
    ///   - router: a bound (or to-be-bound) ROUTER socket for sessions.
    ///   - bus: a PUB socket for events (bound here, or connected to the bus proxy).
    public init(hierarchy: ContractionHierarchy, configuration: DispatchConfiguration, settings: DispatchDesk.Settings = DispatchDesk.Settings(),
                router: Socket, bus: Socket, speed: Double) {
        var settings = settings
        settings.speed = speed
        desk = DispatchDesk(engine: DispatchEngine(planner: HierarchyQuery(hierarchy: hierarchy), configuration: configuration), settings: settings)
        self.router = router
        self.bus = bus
        self.speed = speed
        started = ContinuousClock.now
    }

    /// Simulated seconds since the server started.
    public var simulatedTime: Double { (ContinuousClock.now - started) / .seconds(1) * speed }

    /// Serves until ``stop()`` or cancellation: messages as they come, timers every `tick`.
    public func run(tick: Duration = .milliseconds(50)) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await batch in self.router.batches() {
                    try await self.handle(batch)
                    if await self.stopped { return }
                }
            }
            group.addTask {
                var lastStatus = ContinuousClock.now
                while await !self.stopped {
                    let asleep = ContinuousClock.now
                    try await Task.sleep(for: tick)
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
        // The last word on the bus: final counts for whoever records the run.
        try? await publishStatus()
    }

    public func stop() { stopped = true }

    /// The promises dispatch broke so far (none, if it works).
    public var violations: [InvariantViolation] { desk.checker.violations }

    /// How many messages were malformed, refused, or had no peer to go to.
    public var counts: (malformed: Int, refused: Int, undeliverable: Int) { (malformed.total, desk.refused, undeliverable) }

    private func handle(_ batch: [Message]) async throws {
        var out = Outbox()
        for message in batch {
            let request: Frames.Routed
            do {
                request = try Frames.Routed(frames: message.frames)
            } catch {
                malformed.record(error)
                continue
            }
            let time = simulatedTime
            if case .snapshotRequest? = request.envelope.body {
                out.routed += snapshot(for: request, at: time)
                continue
            }
            if case .stop? = request.envelope.body { stopped = true }
            // Sessions stamp their simulated time: how late their messages get here.
            if request.envelope.simTimeMs > 0 { lateness = max(lateness, time - Double(request.envelope.simTimeMs) / 1000) }
            out.add(desk.receive(request.envelope, from: request.peer, at: time), at: time, stampers: &stampers)
        }
        try await send(out)
    }

    private func advance(late: Duration) async throws {
        lateness = max(lateness, late / .seconds(1) * speed)
        let time = simulatedTime
        var out = Outbox()
        out.add(desk.tick(at: time), at: time, stampers: &stampers)
        try await send(out)
    }

    /// This process's health on `status.dispatch`, about once a second.
    private func publishStatus() async throws {
        let stats = router.statistics()
        let status = ProcessStatus.current(role: .dispatch, processID: "dispatch", messagesIn: stats.received, messagesOut: stats.sent,
                                           apps: desk.engine.driverCount, lagSeconds: lateness) { $0.malformed = UInt64(malformed.total) }
        lateness = 0
        let envelope = Envelope(.processStatus(status), from: stampers.status.next(), simTimeMs: WireMapping.milliseconds(simulatedTime))
        try await bus.send(Message(Frames.Published(topic: Topic.status(of: "dispatch"), envelope: envelope).frames))
    }

    private func snapshot(for request: Frames.Routed, at time: Double) -> [Message] {
        let state = desk.snapshot()
        let chunks = stride(from: 0, to: max(1, state.count), by: 1_000).map { Array(state[$0..<min(state.count, $0 + 1_000)]) }
        return chunks.enumerated().map { index, part in
            let chunk = SnapshotChunk.with {
                $0.sequenceAt = stampers.events.lastSequence
                $0.state = part
                $0.last = index == chunks.count - 1
            }
            let envelope = Envelope(.snapshotChunk(chunk), from: stampers.replies.next(), inReplyTo: request.envelope.messageID,
                                    simTimeMs: WireMapping.milliseconds(time))
            return Message(Frames.Routed(peer: request.peer, envelope: envelope).frames)
        }
    }

    /// Published messages go to the PUB in the order they were stamped, routed ones to the
    /// ROUTER (one at a time: a vanished peer is counted, not fatal).
    ///
    /// The actor is reentrant: while one batch awaits its sends, the timer may stamp and send the
    /// next. So events join one queue before the first suspension and a single drain publishes
    /// it, keeping the bus's sequence numbers in order.
    private func send(_ out: Outbox) async throws {
        for (kind, count) in out.kinds { published[kind, default: 0] += count }
        publishQueue += out.published
        if !publishing {
            publishing = true
            defer { publishing = false }
            while !publishQueue.isEmpty {
                let batch = publishQueue
                publishQueue = []
                try await bus.send(contentsOf: batch)
            }
        }
        for message in out.routed {
            do { try await router.sendConfirmed(message) } catch { undeliverable += 1 }
        }
    }
}

/// The sequence stampers of dispatch's replies and of its bus events.
struct Stampers {
    var replies = SequenceStamper(sender: "dispatch")
    var events = SequenceStamper(sender: "dispatch-bus")
    var status = SequenceStamper(sender: "dispatch-status")
}

/// Messages ready to send: to sessions through the ROUTER, and to the bus.
struct Outbox {
    var routed: [Message] = []
    var published: [Message] = []
    var kinds: [DispatchEventKind: Int] = [:]

    /// Stamps and frames the desk's outgoing messages at simulated `time`.
    mutating func add(_ outgoing: [Outgoing], at time: Double, stampers: inout Stampers) {
        let ms = WireMapping.milliseconds(time)
        for item in outgoing {
            switch item {
            case .toPeer(let peer, let body, let inReplyTo):
                let envelope = Envelope(body, from: stampers.replies.next(), inReplyTo: inReplyTo, simTimeMs: ms)
                routed.append(Message(Frames.Routed(peer: peer, envelope: envelope).frames))
            case .publish(let topic, let event):
                kinds[event.kind, default: 0] += 1
                let envelope = Envelope(.dispatchEvent(event), from: stampers.events.next(), simTimeMs: ms)
                published.append(Message(Frames.Published(topic: topic, envelope: envelope).frames))
            }
        }
    }
}
