import Randomness
import SimulatedTime
import VirtualTime

/// A message between test participants: who made it and when, so a trace shows it.
struct Note: Sendable, Hashable {
    var origin: String
    var madeAt: Int64
    var serial: Int
}

/// One handled event in a participant's trace.
struct Handled: Hashable, CustomStringConvertible {
    var time: Int64
    var what: String
    var window: UInt64
    var description: String { "\(time) \(what)" }
}

/// A participant of the test city: reacts to each input and timer by a rule drawn from the event
/// itself (never from the order things arrived), sending notes to others and setting timers.
struct Node {
    var clock: WindowParticipant<Note>
    var timers: [Int64] = []
    var trace: [Handled] = []
    var serial = 0
    let busy: Bool

    init(_ id: ParticipantID, latency: SimDuration, busy: Bool, firstTimer: Int64?) {
        clock = WindowParticipant(id: id, latency: latency)
        self.busy = busy
        if let firstTimer { timers = [firstTimer] }
    }
}

/// Where a note is on its way: to which participant's which life.
struct InFlight {
    var to: String
    var life: UInt32
    var note: Note
    var sentAt: SimTime
    var sender: String
    var sequence: UInt64
    var link: UInt64
}

/// A small city of participants on an in-memory network that delivers in an order drawn from
/// `chaos`: the keeper, the participants, and the network, run until the keeper finishes.
struct VirtualCity {
    var keeper: WindowKeeper
    var nodes: [String: Node] = [:]
    var network: [InFlight] = []
    /// Openings published and not yet seen by each participant (the bus), in order.
    var bus: [String: [WindowOpening]] = [:]
    var chaos: SeededGenerator
    var finishedAt: SimTime?
    var sequences: [String: UInt64] = [:]
    let names: [String]
    let latency: SimDuration
    let horizon: Int64
    /// Messages the network loses with a life that crashes (those it still held).
    var lostInCrash = 0

    /// - Parameter skippable: the participants (by index) that sit out windows with nothing due.
    init(
        participants: Int, busy: Set<Int>, latencyMs: Int64, horizonMs: Int64, chaos: UInt64,
        end: SimTime? = nil, skippable: Set<Int> = []
    ) {
        let names = (0..<participants).map { "p\($0)" }
        self.names = names
        latency = SimDuration(wireMilliseconds: latencyMs)
        horizon = horizonMs
        keeper = WindowKeeper(
            participants: names,
            settings: .init(latency: latency, end: end, skippable: Set(skippable.map { names[$0] })))
        self.chaos = SeededGenerator(seed: chaos)
        for (index, name) in names.enumerated() {
            nodes[name] = Node(
                ParticipantID(name), latency: latency, busy: busy.contains(index),
                firstTimer: busy.contains(index) ? Int64(index) * 7 : nil)
        }
    }

    /// Joins everyone and runs to the end; returns each participant's trace.
    mutating func run(crash: (name: String, afterWindows: UInt64)? = nil) -> [String: [Handled]] {
        for name in names { apply(keeper.joined(ParticipantID(name))) }
        var crashed = false
        var steps = 0
        while finishedAt == nil {
            steps += 1
            precondition(steps < 2_000_000, "the city did not finish: waiting for \(keeper.waitingFor)")
            if let crash, !crashed, (keeper.current?.window.index ?? 0) >= crash.afterWindows {
                crashed = true
                restart(crash.name, planned: false)
                continue
            }
            let pendingBus = names.filter { !(bus[$0]?.isEmpty ?? true) }
            precondition(
                !pendingBus.isEmpty || !network.isEmpty, "deadlock: nothing moves, the keeper waits for \(keeper.waitingFor)")
            let choice = Int.random(in: 0..<(pendingBus.count + network.count), using: &chaos)
            if choice < pendingBus.count {
                let name = pendingBus[choice]
                let opening = bus[name]!.removeFirst()
                let step = nodes[name]!.clock.opened(opening)
                perform(step, at: name)
            } else if !network.isEmpty {
                let flight = network.remove(at: choice - pendingBus.count)
                guard let node = nodes[flight.to], node.clock.id.incarnation == flight.life else { continue }
                let step = nodes[flight.to]!.clock.arrived(
                    flight.note, sentAt: flight.sentAt, from: flight.sender, sequence: flight.sequence, link: flight.link)
                perform(step, at: flight.to)
            }
        }
        return nodes.mapValues(\.trace)
    }

    private mutating func apply(_ actions: [WindowKeeper.Action]) {
        for action in actions {
            switch action {
            case .open(let opening): for name in opening.addressees { bus[name, default: []].append(opening) }
            case .kill(let name): restart(name, planned: true)
            case .finish(let time): finishedAt = time
            }
        }
    }

    /// A participant dies and starts again, empty, in its next life.
    private mutating func restart(_ name: String, planned: Bool) {
        let old = nodes[name]!
        let life = old.clock.id.incarnation + 1
        if !planned {
            // What the dead life still held to send is lost with it.
            let before = network.count
            network.removeAll { $0.sender == old.clock.id.senderKey && Bool.random(using: &chaos) }
            lostInCrash += before - network.count
        }
        nodes[name] = Node(ParticipantID(name, incarnation: life), latency: latency, busy: old.busy, firstTimer: nil)
        bus[name] = []
        apply(keeper.joined(ParticipantID(name, incarnation: life)))
    }

    private mutating func perform(_ step: WindowParticipant<Note>.Step, at name: String) {
        switch step {
        case .wait: return
        case .report(let report): apply(keeper.reported(report))
        case .drain: apply(keeper.reported(nodes[name]!.clock.finish(nextTimer: nodes[name]!.timers.min().map(time))!))
        case .work(let opening): work(opening, at: name)
        }
    }

    /// Works through a window: inputs and timers before its end, in time order (inputs before
    /// timers at the same time), each reacted to by the rule.
    private mutating func work(_ opening: WindowOpening, at name: String) {
        var node = nodes[name]!
        let window = opening.window
        var inputs = node.clock.inputs()
        while true {
            let timer = node.timers.filter { $0 < window.end.wireMilliseconds }.min()
            let input = inputs.first
            if let input, timer == nil || input.time.wireMilliseconds <= timer! {
                inputs.removeFirst()
                precondition(window.contains(input.time), "\(name) got \(input.time) in \(window)")
                precondition(
                    input.time.wireMilliseconds == input.payload.madeAt + latency.wireMilliseconds,
                    "a note is handled exactly its latency after it was sent")
                react(
                    &node, at: input.time.wireMilliseconds, to: "note \(input.payload.origin)#\(input.payload.serial)",
                    window: window, opening: opening)
            } else if let timer {
                node.timers.removeAll { $0 == timer }
                precondition(window.contains(SimTime(wireMilliseconds: timer)), "\(name)'s timer \(timer) in \(window)")
                react(&node, at: timer, to: "timer", window: window, opening: opening)
            } else {
                break
            }
        }
        let report = node.clock.finish(nextTimer: node.timers.min().map(time))!
        nodes[name] = node
        apply(keeper.reported(report))
    }

    private mutating func react(_ node: inout Node, at now: Int64, to what: String, window: Window, opening: WindowOpening) {
        if let last = node.trace.last { precondition(last.time <= now, "\(node.clock.id) went back in time") }
        node.trace.append(Handled(time: now, what: what, window: window.index))
        guard now < horizon, node.busy else { return }
        var rule = SeededGenerator(seed: fnv("\(node.clock.id.name) \(now) \(what)"))
        // A timer sends up to two notes and sets the next timer; a note is answered now and then.
        let isTimer = what == "timer"
        let sends = isTimer ? Int.random(in: 0...2, using: &rule) : (Int.random(in: 0..<3, using: &rule) == 0 ? 1 : 0)
        for _ in 0..<sends {
            let to = names[Int.random(in: 0..<names.count, using: &rule)]
            guard to != node.clock.id.name else { continue }
            node.serial += 1
            let at = SimTime(wireMilliseconds: now)
            let (link, _, life) = node.clock.send(to: to, at: at)
            let sequence = (sequences[node.clock.id.senderKey] ?? 0) + 1
            sequences[node.clock.id.senderKey] = sequence
            network.append(
                InFlight(
                    to: to, life: life,
                    note: Note(origin: node.clock.id.name, madeAt: now, serial: node.serial), sentAt: at,
                    sender: node.clock.id.senderKey, sequence: sequence, link: link))
        }
        if isTimer || node.timers.isEmpty {
            node.timers.append(now + Int64.random(in: 1...9_000, using: &rule))
        }
    }
}

private func time(_ ms: Int64) -> SimTime { SimTime(wireMilliseconds: ms) }

/// FNV-1a: a seed drawn from an event's description, the same on every run and machine.
func fnv(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    return hash
}
