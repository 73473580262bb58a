import SimulatedTime

/// The keeper of virtual time (the coordinator runs it): opens windows no longer than the
/// lookahead, and the next only when every participant has reported the last one done; jumps over
/// stretches in which nobody has anything to do (Nicol's YAWNS windows); drains the network before
/// a planned kill; ends the run when its finishers have left; and tells which participant each
/// window waited for.
///
/// A state machine in the manner of swift-nio's `NIOAsyncWriter`: events in, ``Action``s out, no
/// sockets or clocks, so that it is tested event by event and the coordinator does the I/O.
public struct WindowKeeper: Sendable {
    /// What the keeper asks its owner to do.
    public enum Action: Hashable, Sendable {
        /// Publish this opening to every participant.
        case open(WindowOpening)
        /// Kill this participant now (a planned fault); the network holds nothing to or from it.
        case kill(String)
        /// Nothing is left to do before the run's end: the run is over at this simulated time.
        case finish(SimTime)
    }

    public struct Settings: Hashable, Sendable {
        /// The lookahead: the simulated delay of every message between participants, and the
        /// longest a window may be.
        public var latency: SimDuration
        /// Where simulated time starts.
        public var start: SimTime
        /// Where the run ends (no window reaches past it); `nil`: when nobody has anything to do.
        public var end: SimTime?
        /// Participants whose leaving ends the run (the rider processes): once every one has
        /// left, the run goes on for one lookahead past the end of the window in progress (what
        /// they sent last, a goodbye, is delivered and handled) and is over then.
        public var finishers: Set<String>
        /// Participants that sit out a window in which nothing of theirs is due (no timer, no
        /// delivery): the rider and driver processes. What they would do in it is nothing, so
        /// their results are the same; the window is not sent to them and does not wait for them.
        public var skippable: Set<String>

        public init(
            latency: SimDuration, start: SimTime = .zero, end: SimTime? = nil, finishers: Set<String> = [],
            skippable: Set<String> = []
        ) {
            precondition(latency.wireMilliseconds >= 1, "the lookahead is at least 1 ms")
            self.latency = latency
            self.start = start
            self.end = end
            self.finishers = finishers
            self.skippable = skippable
        }
    }

    /// How the windows went, for the monitor and the summary.
    public struct Statistics: Hashable, Sendable {
        /// Windows opened to advance time (drains not counted).
        public var windows: UInt64 = 0
        public var drains: UInt64 = 0
        /// How many windows each participant (by name) was the last to report.
        public var waitedFor: [String: UInt64] = [:]
        /// Wall time each participant spent on windows, in all.
        public var busy: [String: Duration] = [:]
        /// Simulated time skipped because nobody had anything to do.
        public var skipped = SimDuration.zero
        /// Participants that came back without a planned kill (their messages in flight may be lost).
        public var crashes: [String: UInt64] = [:]
        /// How many windows each participant (by name) set the start of: its next event (a timer,
        /// or the delivery of something it sent) was the earliest. What sets the pace of the run.
        public var pacedBy: [String: UInt64] = [:]
        /// Messages delivered before their time, by participant (every life's, added up): zero
        /// in a run that kept the protocol, and so replays exactly.
        public var late: [String: UInt64] = [:]
        /// Windows each participant (by name) sat out, nothing of its own being due in them.
        public var satOut: [String: UInt64] = [:]
    }

    private struct Member: Sendable {
        var life: UInt32 = 0
        /// Messages each life of this participant sent, by receiver life (cumulative per life).
        var sentByLife: [UInt32: [String: UInt64]] = [:]
        /// What this participant's current life received so far, by sender life.
        var received: [String: UInt64] = [:]
        /// Caps on what is expected from dead lives that were not drained (a crash lost their queue).
        var caps: [String: UInt64] = [:]
        var next: SimTime?
        /// When something of its own is next due (``WindowReport/own``).
        var own: SimTime?
        /// The earliest delivery to this participant reported by others since it was last sent a
        /// window (what was sent to it before that, it holds, and its own `next` says when it is due).
        var due: SimTime?
        /// What this life reported late so far.
        var late: UInt64 = 0
        /// The index of the last window this life reported done.
        var reported: UInt64 = 0
    }

    private enum Phase: Hashable, Sendable {
        /// Waiting for every participant's first life.
        case gathering
        case running(WindowOpening)
        /// Drained; waiting for the killed participant's next life.
        case restarting(name: String, after: WindowOpening)
        case finished(SimTime)
    }

    public let settings: Settings
    public private(set) var statistics = Statistics()
    private var members: [String: Member]
    private var phase = Phase.gathering
    /// Planned kills: when, and whom; earliest first.
    private var kills: [(time: SimTime, name: String)] = []
    private var nextIndex: UInt64 = 1
    /// Participants gone for good.
    private var departed: Set<String> = []
    /// Where the run ends because every finisher has left.
    private var closing: SimTime?

    /// A keeper for these participants (by name); it opens the first window once each has joined.
    public init(participants: [String], settings: Settings) {
        precondition(!participants.isEmpty, "virtual time needs at least one participant")
        precondition(settings.finishers.isSubset(of: participants), "a finisher is a participant")
        self.settings = settings
        members = Dictionary(uniqueKeysWithValues: participants.map { ($0, Member()) })
    }

    /// The window in progress, if any.
    public var current: WindowOpening? {
        switch phase {
        case .running(let opening): opening
        case .restarting(_, let opening): opening
        case .gathering, .finished: nil
        }
    }

    /// Whether the run is over.
    public var isFinished: Bool { if case .finished = phase { true } else { false } }

    /// Whether `name` has left the run (said so in its last report, or ``left(_:)``).
    public func hasLeft(_ name: String) -> Bool { departed.contains(name) }

    /// Participants the window in progress still waits for, by name.
    public var waitingFor: [String] {
        members.filter { awaited($0.value) }.map(\.key).sorted()
    }

    /// Whether the window in progress waits for anyone (asked at every report, without the list).
    private var isWaiting: Bool { members.values.contains(where: awaited) }

    /// Whether the window in progress waits for `member`: a live one that has not reported it.
    private func awaited(_ member: Member) -> Bool {
        guard case .running(let opening) = phase else { return false }
        return member.life > 0 && member.reported < opening.window.index
    }

    /// Plans `name` to be killed at simulated `time` (stress mode): at the first window boundary at
    /// or after it, once the network is drained.
    public mutating func planKill(of name: String, at time: SimTime) {
        precondition(members[name] != nil, "\(name) is not a participant")
        kills.append((time, name))
        kills.sort { ($0.time, $0.name) < ($1.time, $1.name) }
    }

    /// A participant's life began (its first start, or a restart): it will do the window in progress.
    public mutating func joined(_ participant: ParticipantID) -> [Action] {
        guard var member = members[participant.name], participant.incarnation > member.life,
            !departed.contains(participant.name)
        else { return [] }
        let planned: Bool
        if case .restarting(let name, _) = phase, name == participant.name { planned = true } else { planned = false }
        if member.life > 0 && !planned {
            statistics.crashes[participant.name, default: 0] += 1
            capDeadLife(of: participant.name, life: member.life)
        }
        member.life = participant.incarnation
        member.received = [:]
        member.late = 0
        member.reported = 0
        member.next = nil
        member.own = nil
        member.caps = [:]
        members[participant.name] = member
        defer { checkInvariants() }
        switch phase {
        case .gathering:
            guard members.allSatisfy({ $0.value.life > 0 || departed.contains($0.key) }) else { return [] }
            return advance(from: settings.start, exactly: true)
        case .running(let opening):
            // A life that came back on its own: the window in progress is re-sent (with what its
            // receivers may still expect from the life that died capped) and waits for it.
            return [.open(reissued(opening))]
        case .restarting(let name, let after):
            // Another life that came back meanwhile does the next window with everyone.
            guard name == participant.name else { return [] }
            return advance(from: after.window.start, exactly: true, skippingKills: true)
        case .finished:
            return []
        }
    }

    /// A participant is gone for good (a rider process whose apps have all finished): no window
    /// waits for it any more, and nothing is expected from or by it.
    public mutating func left(_ name: String) -> [Action] {
        guard let member = members[name], member.life > 0 else { return [] }
        depart(name)
        defer { checkInvariants() }
        switch phase {
        case .gathering:
            guard members.allSatisfy({ $0.value.life > 0 || departed.contains($0.key) }) else { return [] }
            return advance(from: settings.start, exactly: true)
        case .running(let opening):
            guard !isWaiting else { return [] }
            return opening.purpose == .drain ? afterDrain(opening) : advance(from: opening.window.end, exactly: false)
        case .restarting, .finished:
            return []
        }
    }

    /// A participant reports a window done.
    public mutating func reported(_ report: WindowReport) -> [Action] {
        guard var member = members[report.participant.name], report.participant.incarnation == member.life,
            case .running(let opening) = phase, report.window == opening.window.index
        else { return [] }
        guard member.reported < report.window else { return [] }
        member.reported = report.window
        member.sentByLife[member.life] = report.sent
        member.received = report.received
        member.next = report.next
        member.own = report.own
        if report.late > member.late {
            statistics.late[report.participant.name, default: 0] += report.late - member.late
            member.late = report.late
        }
        members[report.participant.name] = member
        for (receiver, delivery) in report.deliveries {
            guard let due = members[receiver].map({ $0.due ?? delivery }) else { continue }
            members[receiver]?.due = min(due, delivery)
        }
        statistics.busy[report.participant.name, default: .zero] += report.busy
        // What it sent stays expected by its receivers, and its delivery may open the next window
        // (its `next`); it is waited for no more.
        if report.leaving { depart(report.participant.name, keepingNext: true) }
        guard !isWaiting else { return [] }
        statistics.waitedFor[report.participant.name, default: 0] += 1
        defer { checkInvariants() }
        if opening.purpose == .drain { return afterDrain(opening) }
        return advance(from: opening.window.end, exactly: false)
    }

    private mutating func depart(_ name: String, keepingNext: Bool = false) {
        members[name]?.life = 0
        if !keepingNext { members[name]?.next = nil }
        departed.insert(name)
        guard closing == nil, !settings.finishers.isEmpty, settings.finishers.isSubset(of: departed) else { return }
        // What the finishers sent in the window in progress is delivered before its end plus a
        // lookahead: the run's last window ends there, so that dispatch handles their goodbyes.
        let windowEnd: SimTime
        switch phase {
        case .gathering: windowEnd = settings.start
        case .running(let opening), .restarting(_, let opening): windowEnd = opening.window.end
        case .finished(let time): windowEnd = time
        }
        closing = SimTime(wireMilliseconds: windowEnd.wireMilliseconds + settings.latency.wireMilliseconds)
    }

    /// Where the run ends: the settings' end, or where the finishers' leaving put it if earlier.
    private var end: SimTime? { [settings.end, closing].compactMap { $0 }.min() }

    /// The network is drained: the planned kill happens now (or, if its process has left, the
    /// window opens without it).
    private mutating func afterDrain(_ opening: WindowOpening) -> [Action] {
        guard let due = kills.first else { return advance(from: opening.window.start, exactly: true) }
        kills.removeFirst()
        guard !departed.contains(due.name) else { return advance(from: opening.window.start, exactly: true) }
        phase = .restarting(name: due.name, after: opening)
        return [.kill(due.name)]
    }

    /// Opens the next window at the earliest time anyone has something to do (never before
    /// `from`; exactly at `from` when a life has just begun and its timers are not known yet), or a
    /// drain first if a kill is due by then, or finishes.
    private mutating func advance(from: SimTime, exactly: Bool, skippingKills: Bool = false) -> [Action] {
        var start = from
        var pacer: String?
        if !exactly {
            let earliest = members.compactMap { name, member in member.next.map { (time: $0, name: name) } }
                .min { ($0.time, $0.name) < ($1.time, $1.name) }
            // A delivery to a process that sat out windows since it was sent, whose sender's
            // `next` no longer names it (the sender sat out too).
            let delivery = members.compactMap { name, member in member.due.map { (time: $0, name: name) } }
                .min { ($0.time, $0.name) < ($1.time, $1.name) }
            let soonest = [earliest?.time, delivery?.time, kills.first?.time].compactMap { $0 }.min()
            // A participant that left reports no more: its last `next` counts for this window only.
            for name in departed { members[name]?.next = nil }
            guard let soonest else { return finish(at: end ?? from) }
            start = max(from, soonest)
            if let earliest, earliest.time == soonest {
                pacer = earliest.name
            } else if let delivery, delivery.time == soonest {
                pacer = delivery.name
            }
        }
        if let end, start >= end { return finish(at: end) }
        if !skippingKills, let kill = kills.first, kill.time <= start {
            let opening = WindowOpening(
                window: makeWindow(from: start), purpose: .drain, expected: expectations(), incarnations: incarnations())
            statistics.drains += 1
            phase = .running(opening)
            return [.open(opening)]
        }
        statistics.skipped = statistics.skipped + (start - from)
        if let pacer { statistics.pacedBy[pacer, default: 0] += 1 }
        let window = makeWindow(from: start)
        let opening = WindowOpening(
            window: window, expected: expectations(), incarnations: incarnations(), recipients: recipients(of: window))
        statistics.windows += 1
        phase = .running(opening)
        return [.open(opening)]
    }

    private mutating func finish(at time: SimTime) -> [Action] {
        phase = .finished(time)
        return [.finish(time)]
    }

    private mutating func makeWindow(from start: SimTime) -> Window {
        var endMs = start.wireMilliseconds + settings.latency.wireMilliseconds
        if let end { endMs = min(endMs, end.wireMilliseconds) }
        defer { nextIndex += 1 }
        return Window(index: nextIndex, start: start, end: SimTime(wireMilliseconds: endMs))
    }

    /// The opening in progress, again, with the expectations and lives as they now stand: the new
    /// life works through it, those that already did report again, those still waiting for
    /// messages wait for what can still come.
    private mutating func reissued(_ opening: WindowOpening) -> WindowOpening {
        var again = opening
        again.expected = expectations()
        again.incarnations = incarnations()
        if let recipients = opening.recipients {
            // Those that had sat it out go on doing so; a new life works through it.
            let returning = members.filter { $0.value.life > 0 && $0.value.reported == 0 }.map(\.key)
            again.recipients = recipients.union(returning)
        }
        phase = .running(again)
        return again
    }

    /// What each participant's current life must have received, from each sender life: every
    /// sender life's reported (cumulative) count to it, capped for a life that died undrained.
    /// One pass over what was sent, which names its receivers by their lives' keys.
    private func expectations() -> [String: [String: UInt64]] {
        var table: [String: [String: UInt64]] = [:]
        var receivers: [String: String] = [:]
        for (name, member) in members where member.life > 0 {
            receivers[ParticipantID(name, incarnation: member.life).senderKey] = name
            table[name] = [:]
        }
        for (sender, member) in members {
            for (life, sent) in member.sentByLife {
                let key = ParticipantID(sender, incarnation: life).senderKey
                for (to, count) in sent where count > 0 {
                    guard let receiver = receivers[to] else { continue }
                    let expected = members[receiver]?.caps[key].map { min(count, $0) } ?? count
                    if expected > 0 { table[receiver, default: [:]][key] = expected }
                }
            }
        }
        return table
    }

    /// A life died without a drain: its receivers expect from it no more than they had when they
    /// last reported (what it still queued is lost).
    private mutating func capDeadLife(of name: String, life: UInt32) {
        let key = ParticipantID(name, incarnation: life).senderKey
        for receiver in members.keys {
            guard let member = members[receiver] else { continue }
            members[receiver]?.caps[key] = member.received[key] ?? 0
        }
    }

    private func incarnations() -> [String: UInt32] { members.mapValues(\.life) }

    /// Who works through `window`: every live participant but a skippable one whose life has
    /// reported before (its timers are known) and that has nothing due before the window's end.
    /// Those sent the window will hold everything sent to them so far when they start; those that
    /// sit it out count as having reported it. `nil` when nobody sits it out.
    private mutating func recipients(of window: Window) -> Set<String>? {
        var recipients = Set<String>()
        var idle: [String] = []
        for (name, member) in members where member.life > 0 && !departed.contains(name) {
            let due = [member.own, member.due].compactMap { $0 }.min()
            let sitsOut = settings.skippable.contains(name) && member.reported > 0 && due.map { $0 >= window.end } ?? true
            if sitsOut { idle.append(name) } else { recipients.insert(name) }
        }
        // A window opened for nobody's own work (a kill's instant, a departed participant's last
        // timer) goes to everyone: somebody must report it for the next to open.
        if recipients.isEmpty {
            recipients.formUnion(idle)
            idle.removeAll()
        }
        for name in recipients { members[name]?.due = nil }
        for name in idle {
            // What it sent is due before this window ends: in its receivers' hands (their `due`);
            // what is left of its own is its own.
            let own = members[name]?.own
            members[name]?.next = own
            members[name]?.reported = window.index
            statistics.satOut[name, default: 0] += 1
        }
        return idle.isEmpty ? nil : recipients
    }

    /// The keeper's promises, checked after every event in debug builds.
    private func checkInvariants() {
        #if DEBUG
            if case .running(let opening) = phase {
                precondition(opening.window.index < nextIndex, "a window's index comes from the counter")
                precondition(
                    opening.window.end.wireMilliseconds - opening.window.start.wireMilliseconds
                        <= settings.latency.wireMilliseconds,
                    "a window is never longer than the lookahead")
                for (name, member) in members where member.life > 0 {
                    precondition(member.reported <= opening.window.index, "\(name) reported a window not yet opened")
                }
            }
        #endif
    }
}
