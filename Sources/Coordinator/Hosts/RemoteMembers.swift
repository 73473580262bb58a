import Topology
import Wire

/// The processes of a run that other hosts start (a city across hosts, docs/ARCHITECTURE.md):
/// when each may join, which start of it is in the run, and which went quiet — decided without
/// sockets or clocks of its own. The supervisor feeds it what the bus says and the time, and
/// carries out what it returns (the shape of `DispatchDesk`).
///
/// A process on another host is started by whatever runs processes there; it asks to join with
/// a random incarnation per start. The coordinator accepts a start only when the run has come to
/// the process (``expect(_:arguments:)``: its stage, or a restart), so that every start and
/// restart goes through the run's one path (start order, virtual time's lives, the restart
/// budget). A new start of a process whose earlier start still counts as running means the
/// earlier one died: it is recorded as exited, and the new one waits for the restart.
struct RemoteMembers {
    /// What the run knows of its remote processes.
    struct Settings: Sendable {
        /// The host of each process that runs elsewhere, by process name.
        var hosts: [String: Topology.Host]
        /// CRC-32 of the coordinator's topology file: a host with another is refused.
        var topologyCRC: UInt32
        /// How long a joined process may say nothing (its `Ready` comes every second) before it
        /// counts as dead: longer than a network outage the run is to ride out.
        var silence: Duration = .seconds(10)
    }

    /// What the supervisor is to do.
    enum Action: Equatable {
        /// Publish this answer on `control.join-reply.<process id>`.
        case answer(JoinReply)
        /// A start of a remote process ended (or is given up for dead).
        case exited(Supervisor.Exit)
        /// Something the run's log should say.
        case log(String)
        /// Stop this earlier start of a process at once, should it still run (a second copy
        /// started by mistake, one cut off by the network): a newer start has replaced it.
        case stopStale(name: String, life: UInt32)
        /// Stop this start at once, again: the coordinator killed it, and a publication has no
        /// receipt, so it is told until a newer start of the process joins.
        case stopKilled(name: String, life: UInt32)
    }

    /// One start of a remote process, accepted into the run.
    struct Start: Equatable {
        var pid: Int32
        var incarnation: UInt64
        var life: UInt32
        var machine: String
        var lastHeard: ContinuousClock.Instant
        var ready = false
        var arguments: [String]
    }

    private struct Member {
        /// The arguments to hand a start, while the run waits for one.
        var expected: [String]?
        var current: Start?
        /// The last start given up for dead after a silence: it may only have been cut off.
        var lost: Start?
        /// The start the coordinator killed, until a newer one joins, and when it was last told.
        var killed: (life: UInt32, told: ContinuousClock.Instant)?
        var starts: UInt32 = 0
    }

    let settings: Settings
    private var members: [String: Member]

    init(_ settings: Settings) {
        self.settings = settings
        members = settings.hosts.mapValues { _ in Member() }
    }

    /// Whether process `name` runs on another host.
    func isRemote(_ name: String) -> Bool { members[name] != nil }

    /// The start of `name` in the run, while it runs.
    func current(_ name: String) -> Start? { members[name]?.current }

    /// Whether `name` runs and has said it is ready.
    func isReady(_ name: String) -> Bool { members[name]?.current?.ready ?? false }

    /// The run has come to `name` (its stage, or a restart): the next start that asks joins,
    /// with `arguments` (its command line without `--topology`).
    mutating func expect(_ name: String, arguments: [String]) {
        assert(isRemote(name), "\(name) does not run on another host")
        members[name]?.expected = arguments
    }

    /// A process asks to join.
    mutating func join(_ request: JoinRequest, now: ContinuousClock.Instant) -> [Action] {
        let name = request.processID
        func reply(_ build: (inout JoinReply) -> Void) -> Action {
            var reply = JoinReply.with {
                $0.processID = name
                $0.incarnation = request.incarnation
            }
            build(&reply)
            return .answer(reply)
        }
        guard var member = members[name] else {
            let known = settings.hosts.keys.sorted().joined(separator: ", ")
            return [reply { $0.refusal = "\(name) is not a process this run expects from another host (those are: \(known))" }]
        }
        guard request.topologyCrc == settings.topologyCRC else {
            return [
                reply {
                    $0.refusal =
                        "the topology file differs from the coordinator's (CRC-32 \(hex(request.topologyCrc)) here, "
                        + "\(hex(settings.topologyCRC)) there): give every host the same file"
                }
            ]
        }
        if let current = member.current, current.incarnation == request.incarnation {
            return [accepted(reply, current)]
        }
        var actions: [Action] = []
        if let current = member.current {
            // Its host started it again: the start the run knew is gone (and is stopped, should it not be).
            member.current = nil
            actions.append(.exited(exit(name, current, status: -1, lostFor: nil, reason: "started again on its host")))
            actions.append(.stopStale(name: name, life: current.life))
        }
        guard let arguments = member.expected else {
            members[name] = member
            return actions + [reply { $0.waitingFor = "the coordinator to come to \(name) (start order, or its restart)" }]
        }
        member.starts += 1
        if let lost = member.lost { actions.append(.stopStale(name: name, life: lost.life)) }
        member.lost = nil
        member.killed = nil
        let start = Start(
            pid: request.pid, incarnation: request.incarnation, life: member.starts, machine: request.machine,
            lastHeard: now, arguments: arguments)
        member.current = start
        member.expected = nil
        members[name] = member
        let host = settings.hosts[name].map { "\($0.name) (\($0.address))" } ?? "?"
        return actions + [
            .log("\(name) joined from \(request.machine) on host \(host), pid \(request.pid), life \(start.life)"),
            accepted(reply, start),
        ]
    }

    /// A `Ready` heard on the bus: the start of its life is alive. One given up for dead after a
    /// silence (a network cut, longer than the settings allow) is back, unless another start of
    /// the process has joined since.
    mutating func heard(_ ready: Ready, now: ContinuousClock.Instant) -> [Action] {
        let name = ready.processID
        guard var member = members[name] else { return [] }
        if member.current == nil, var lost = member.lost, lost.life == ready.life {
            let silence = (now - lost.lastHeard) / .seconds(1)
            lost.lastHeard = now
            member.current = lost
            member.lost = nil
            member.expected = nil
            members[name] = member
            return [.log("\(name) is back after \(Int(silence.rounded())) s of silence (life \(lost.life))")]
        }
        guard var current = member.current, current.life == ready.life else { return [] }
        current.lastHeard = now
        current.ready = true
        members[name]?.current = current
        return []
    }

    /// A joined process says it leaves.
    mutating func left(_ exit: ProcessExit) -> [Action] {
        guard let current = members[exit.processID]?.current, current.life == exit.life else { return [] }
        members[exit.processID]?.current = nil
        return [.exited(self.exit(exit.processID, current, status: exit.status, lostFor: nil, reason: exit.reason))]
    }

    /// The coordinator stopped `name` abruptly (stress mode's kill; the `Stop` is published as
    /// this returns): it counts as dead now, and is told again by ``stopsDue(now:)`` until a
    /// newer start joins, should the first `Stop` be lost.
    mutating func killed(_ name: String, now: ContinuousClock.Instant) -> [Action] {
        guard let current = members[name]?.current else { return [] }
        members[name]?.current = nil
        members[name]?.killed = (current.life, now)
        return [.exited(Supervisor.Exit(name: name, pid: current.pid, status: 9, signalled: true))]
    }

    /// The `Stop`s to say again: each killed start that no newer start has replaced, once a
    /// second. A killed start that is alive after all (its `Stop` lost) would otherwise run on
    /// beside the run, and its host would never start it again.
    mutating func stopsDue(now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        for name in members.keys.sorted() {
            guard let killed = members[name]?.killed, now - killed.told >= .seconds(1) else { continue }
            members[name]?.killed = (killed.life, now)
            actions.append(.stopKilled(name: name, life: killed.life))
        }
        return actions
    }

    /// Starts silent for longer than the settings allow are given up for dead.
    mutating func check(now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        for name in members.keys.sorted() {
            guard let current = members[name]?.current, now - current.lastHeard > settings.silence else { continue }
            members[name]?.current = nil
            members[name]?.lost = current
            let seconds = (now - current.lastHeard) / .seconds(1)
            actions.append(.exited(exit(name, current, status: -1, lostFor: seconds, reason: "")))
        }
        return actions
    }

    private func accepted(_ reply: (_ build: (inout JoinReply) -> Void) -> Action, _ start: Start) -> Action {
        reply {
            $0.accepted = true
            $0.arguments = start.arguments
            $0.life = start.life
        }
    }

    private func exit(_ name: String, _ start: Start, status: Int32, lostFor: Double?, reason: String) -> Supervisor.Exit {
        Supervisor.Exit(
            name: name, pid: start.pid, status: status, signalled: false, lostFor: lostFor, reason: reason.isEmpty ? nil : reason)
    }

    private func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }
}
