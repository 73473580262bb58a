import SimulatedTime
import VirtualTime
import Wire
import ZeroMQ

/// Dispatch's side of virtual time: the window participant, the engine's next tick, the instant
/// being handled.
///
/// A class, owned by its server actor and never shared: as a struct in an optional, each read of
/// one field through it copied and destroyed the whole state (the hosts' `VirtualHost` likewise).
final class VirtualDispatch {
    /// A session's message held for its window: its frames, as the journal keeps them, and the
    /// envelope they were decoded to on arrival (decoding it again when it is due took about a
    /// tenth of dispatch's samples in a profile of metro in virtual time).
    struct Held: Sendable {
        let frames: [[UInt8]]
        let routed: Frames.Routed
    }

    var participant: WindowParticipant<Held>
    /// The grid the engine's timers run on (matching rounds, expiries), in simulated time: a
    /// tick runs on a multiple of it, and only when the desk has something due by then.
    let tick: SimDuration
    /// The earliest instant the next tick may run at: after the last tick, and after the last
    /// input (a tick at an input's instant comes before it).
    var tickFloor: SimTime = .zero
    /// The simulated instant being handled.
    var now: SimTime
    /// The window reports' sender: "dispatch-window", or a shard's "dispatch-K-window".
    var reports: SequenceStamper
    /// Restored from a journal: the sessions' fresh timeouts start again at the first window's
    /// start (the journal's last instant may be a frame of garbage's, which arrives on the wall
    /// clock, so it is no instant a replay would share).
    var recovering = false

    init(participant: WindowParticipant<Held>, tick: SimDuration, now: SimTime, reports: SequenceStamper) {
        self.participant = participant
        self.tick = tick
        self.now = now
        self.reports = reports
    }

    var life: UInt32 { participant.id.incarnation }

    /// The instant of the next tick, in milliseconds: the first on the grid of `periodMs` at or
    /// after `floorMs` by which `due` has come (every grid instant when `due` is nil). Never later
    /// than the first tick that acts, since `due` is rounded down to the millisecond before it is
    /// rounded up to the grid: the ticks left out are only those that would change nothing.
    static func plannedTick(floorMs: Int64, periodMs: Int64, due: Double?) -> Int64 {
        let period = max(1, periodMs)
        let first = (floorMs + period - 1) / period * period
        guard let due else { return first }
        let dueMs = Int64((min(max(due, 0), 1e12) * 1000).rounded(.down))
        return max(first, (dueMs + period - 1) / period * period)
    }

    /// Numbers `envelope` on the link to `receiver` — to its life `life`, or its current one —
    /// and stamps both lives: what every message dispatch sends in virtual time carries.
    func number(_ envelope: inout Envelope, to receiver: String, life: UInt32? = nil) {
        envelope.senderLife = self.life
        let sent =
            if let life { participant.send(to: receiver, life: life, at: envelope.simTime) } else {
                participant.send(to: receiver, at: envelope.simTime)
            }
        envelope.receiverLife = sent.life
        envelope.link = sent.link
    }
}

extension DispatchServer {
    /// How dispatch runs in virtual time.
    public struct VirtualClock: Sendable {
        /// This start's life: 1 for the first, +1 per restart (the coordinator says which).
        public var life: UInt32
        /// The simulated delay of every message between processes: the lookahead.
        public var latency: SimDuration
        /// How often the engine's timers run, in simulated time.
        public var tick: SimDuration

        public init(life: UInt32, latency: SimDuration, tick: SimDuration = .seconds(1)) {
            self.life = life
            self.latency = latency
            self.tick = tick
        }
    }

    /// Serves in virtual time until ``stop()``: sessions' messages are held until the window they
    /// are due in, then handled with the engine's ticks in a fixed order (time, then sender, then
    /// sequence), never in arrival order; the window's events and then its report go to the
    /// keeper on the window link (the events to the bus too).
    /// - Parameter windows: a DEALER connected to the coordinator's window link, hello said.
    public func runVirtual(_ clock: VirtualClock, windows: Socket) async throws {
        windowLink = windows
        if let journal, journal.size <= DispatchJournal.magic.count {
            try record([.started(wallOriginMs: wallOriginMs, speed: speed)])
        }
        enterVirtualTime(clock)
        virtual?.now = SimTime(seconds: timeFloor)
        try await untilStopped { try await self.serveVirtual(windows: windows) }
        try? await publishStatus(final: true)
    }

    private func serveVirtual(windows: Socket) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.readSessions() }
            group.addTask { try await self.readWindows(windows) }
            group.addTask {
                while await !self.stopped {
                    try await Task.sleep(for: .seconds(1))
                    try await self.publishStatus()
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Reads the sessions until dispatch stops, on this actor: each message goes to
    /// ``arrived(_:user:)`` without switching executors (docs/ARCHITECTURE.md, "The transport").
    private func readSessions() async throws {
        for try await batch in router.batches() {
            for message in batch { try await arrived(message.frames, user: message.userID ?? "") }
            if stopped { return }
        }
    }

    /// Reads the keeper's openings until dispatch stops, on this actor.
    private func readWindows(_ windows: Socket) async throws {
        var reader = WindowOpenReader()
        for try await batch in windows.batches() {
            for opening in batch.compactMap({ reader.opening(from: $0.frames) }) { try await opened(opening) }
            if stopped { return }
        }
    }

    /// Switches the clock to virtual time: call before ``restore(from:)``, so that a restored
    /// dispatch resumes at the last instant it journaled, not at a wall-clock reading.
    public func enterVirtualTime(_ clock: VirtualClock) {
        guard virtual == nil else { return }
        virtual = VirtualDispatch(
            participant: WindowParticipant(id: ParticipantID(processName, incarnation: clock.life), latency: clock.latency),
            tick: clock.tick, now: .zero, reports: SequenceStamper(sender: processName + "-window"))
    }

    /// A frame from a session: held for its window if it is a windowed message to this life.
    private func arrived(_ frames: [[UInt8]], user: String) async throws {
        guard let now = virtual?.now, let life = virtual?.life else { return }
        // A connection's key does not change: its name is looked up again when the message is due.
        if !user.isEmpty, let peer = frames.first { usersOfPeers[peer] = user }
        guard let routed = try? Frames.Routed(frames: frames), routed.envelope.link > 0 else {
            // Garbage, or a watcher's snapshot request: acted on at once (counted, answered), as in
            // wall-clock time. It changes nothing a participant sees, and held until the next
            // window it could die unread with a killed dispatch. Only these are rate-limited: a
            // participant's messages are the run's, whatever the wall clock says.
            guard rateLimit.admit(frames.first ?? [], at: (ContinuousClock.now - started) / .seconds(1)) else { return }
            try await act(on: [.received(time: now.seconds, frames: frames, user: user)])
            return
        }
        let envelope = routed.envelope
        // Addressed to an earlier life of dispatch (sent before it restarted): dropped.
        guard envelope.receiverLife == life else { return }
        // In place: a copy of the state would copy the whole inbox for every message.
        guard
            let step = virtual?.participant.arrived(
                VirtualDispatch.Held(frames: frames, routed: routed), sentAt: envelope.simTime,
                from: ParticipantID(WireIDs.process(ofSession: envelope.sender), incarnation: envelope.senderLife).senderKey,
                sequence: envelope.sequence, link: envelope.link)
        else { return }
        try await perform(step)
    }

    private func opened(_ opening: WindowOpening) async throws {
        guard let step = virtual?.participant.opened(opening) else { return }
        try await perform(step)
    }

    private func perform(_ step: WindowParticipant<VirtualDispatch.Held>.Step) async throws {
        switch step {
        case .wait: return
        case .report(let report): try await publish(report)
        case .drain:
            let next = plannedTick()
            guard let report = virtual?.participant.finish(nextTimer: next) else { return }
            try await publish(report)
        case .work(let opening): try await work(through: opening.window)
        }
    }

    /// Handles every input and tick before the window's end, in order, then reports.
    private func work(through window: Window) async throws {
        let began = ContinuousClock.now
        guard let inputs = virtual?.participant.inputs(), let now = virtual?.now else { return }
        virtual?.now = max(now, window.start)
        if virtual?.recovering == true {
            virtual?.recovering = false
            try await act(on: [.recovered(time: window.start.seconds)])
        }
        if let floor = virtual?.tickFloor, floor < window.start { virtual?.tickFloor = window.start }
        // The whole window in one act: the journal written once and the window's messages sent
        // in one batch (a write and a send per input were about a tenth of dispatch's time). The
        // entries come in the same order as one by one; each is applied before the next tick is
        // planned, since an input may bring a deadline forward.
        var out = outbox()
        var kept: [JournalEntry] = []
        for input in inputs {
            applyTicks(through: input.time, including: true, into: &out, kept: &kept)
            virtual?.now = input.time
            virtual?.tickFloor = SimTime(wireMilliseconds: input.time.wireMilliseconds + 1)
            let user = input.payload.frames.first.flatMap { usersOfPeers[$0] } ?? ""
            let entry = core.apply(
                .received(time: input.time.seconds, frames: input.payload.frames, user: user), decoded: input.payload.routed,
                into: &out)
            kept.append(entry)
        }
        applyTicks(through: window.end, including: false, into: &out, kept: &kept)
        try await conclude(kept, out)
        if core.stopRequested { stopped = true }
        let next = plannedTick()
        guard let report = virtual?.participant.finish(nextTimer: next, busy: .now - began) else { return }
        try await publish(report)
    }

    /// Applies the ticks planned before `time` (or at it, when `including`), one by one: each
    /// may change what is due next.
    private func applyTicks(through time: SimTime, including: Bool, into out: inout Outbox, kept: inout [JournalEntry]) {
        while let tick = plannedTick(), tick < time || (including && tick == time) {
            virtual?.now = tick
            virtual?.tickFloor = SimTime(wireMilliseconds: tick.wireMilliseconds + 1)
            let entry = core.apply(.tick(time: tick.seconds), into: &out)
            kept.append(entry)
        }
    }

    /// The next tick, planned from the desk's next deadline (``VirtualDispatch/plannedTick(floorMs:periodMs:due:)``).
    func plannedTick() -> SimTime? {
        guard let state = virtual else { return nil }
        return SimTime(
            wireMilliseconds: VirtualDispatch.plannedTick(
                floorMs: state.tickFloor.wireMilliseconds, periodMs: state.tick.wireMilliseconds, due: core.desk.nextTickDue))
    }

    /// The window report, to the keeper on the window link after every event the window
    /// published (the keeper records a window's events once it has every report of the window).
    private func publish(_ report: WindowReport) async throws {
        guard let stamp = virtual?.reports.next() else { return }
        // What the hosts send now is due in a later window: read when the next opening comes,
        // in one wake-up with it (a watcher's request waits at most the hold's limit). What they
        // sent already (they were done first) is read now, while the keeper opens the window.
        if let windowLink { router.holdInput(until: windowLink, readingFirst: true) }
        let envelope = Envelope(.windowDone(WindowDone(report)), from: stamp)
        try await sendToKeeper(Message(Frames.Published(topic: Topic.windowDone, envelope: envelope).frames))
    }

    /// Numbers each reply and push on its link (the peer's identity is its process name in virtual
    /// time), stamps the lives, and frames it; the fault layer drops, copies and delays in
    /// simulated time.
    func stampedForWindows(_ unframed: [(peer: [UInt8], envelope: Envelope)]) -> [Message] {
        guard !unframed.isEmpty, let state = virtual else { return [] }
        var messages: [Message] = []
        for (peer, envelope) in unframed {
            let fate = faults.faults.isEmpty ? nil : faults.next()
            if let fate, fate.copies == 0, fate.delay == nil { continue }
            var envelope = envelope
            if let delay = fate?.delay { envelope.simTimeMs += Int64((delay / .milliseconds(1)).rounded()) }
            let session = String(decoding: peer, as: UTF8.self)
            let receiver = WireIDs.process(ofSession: session), life = WireIDs.life(ofSession: session)
            // Each copy is numbered on the link as a message of its own (see the hosts' transmit).
            for _ in 0..<max(1, fate?.copies ?? 1) {
                state.number(&envelope, to: receiver, life: life)
                messages.append(Message(Frames.Routed(peer: peer, envelope: envelope).frames))
            }
        }
        return messages
    }
}
