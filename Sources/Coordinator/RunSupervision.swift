import Foundation
import Randomness

/// What supervising a run decides, without processes, signals or clocks of its own: which
/// process to kill and when (stress mode), when to stall and resume the monitor, whether a
/// process that exited is finished, restarted (after what backoff) or ends the run, and when the
/// run is over. The coordinator feeds it the time, what is running and how each process last
/// exited, and carries out the actions it returns — the shape of `DispatchDesk`, and of
/// swift-nio's `NIOAsyncWriter` state machine.
struct RunSupervision {
    /// What the coordinator is to do.
    enum Action: Equatable {
        /// Kill a process (SIGKILL), as fault injection.
        case kill(String)
        /// Stop the monitor (SIGSTOP): a slow consumer.
        case stallMonitor(String)
        /// Let the monitor go on (SIGCONT).
        case resumeMonitor(String)
        /// A process finished its work (a rider process that exited cleanly).
        case finished(String)
        /// Start a process that died again, after `backoff`.
        case restart(String, backoff: Duration)
        /// The run is over.
        case end(RunOutcome)
    }

    /// What the run is told to do: its processes, limits and faults.
    struct Settings {
        var processes: [ProcessSpec]
        var wallLimit: Duration
        var settleGrace: Duration
        var kills: [(name: String, after: Duration)]
        var chaos: ChaosPlan
    }

    private let settings: Settings
    private let upAt: ContinuousClock.Instant
    private var random: SeededGenerator
    private var nextKill: ContinuousClock.Instant?
    private var pendingKills: [(name: String, after: Duration)]
    private var nextStall: ContinuousClock.Instant?
    private var resumeMonitorAt: ContinuousClock.Instant?
    private(set) var finished: Set<String> = []
    private var allFinishedAt: ContinuousClock.Instant?
    /// When each process was last restarted, for the restart budget.
    private var restartTimes: [String: [ContinuousClock.Instant]] = [:]
    /// Processes the run killed on purpose (stress mode) and not yet restarted: a fault
    /// injected is no crash loop, so they come back at once.
    private var killedOnPurpose: Set<String> = []

    /// The coordinator killed `name` on purpose, outside ``step(now:running:lastExits:openRides:stopRequested:)``
    /// (a kill at a simulated instant, in virtual time).
    mutating func killing(_ name: String) { killedOnPurpose.insert(name) }

    /// Supervision of a city that came up at `upAt`.
    init(_ settings: Settings, upAt: ContinuousClock.Instant) {
        self.settings = settings
        self.upAt = upAt
        random = SeededGenerator(seed: settings.chaos.seed)
        pendingKills = settings.kills
        nextKill = settings.chaos.killEvery.map { upAt + Self.exponential($0, &random) }
        nextStall = settings.chaos.stallMonitorEvery.map { upAt + $0 }
    }

    private var monitor: String? { settings.processes.first { $0.role == .monitor }?.name }
    private var finishers: Set<String> { Set(settings.processes.filter(\.finishesRun).map(\.name)) }

    /// One turn of supervision at `now`: `running` are the processes alive, `lastExits` how each
    /// last exited, `openRides` how many rides the bus shows open, `timeStopped` whether simulated
    /// time has come to its end (in virtual time, once the keeper has finished the last window;
    /// always, on the wall clock). Throws when a process died that cannot be restarted, or kept
    /// dying.
    mutating func step(
        now: ContinuousClock.Instant, running: Set<String>, lastExits: [String: Supervisor.Exit], openRides: Int,
        stopRequested: Bool, timeStopped: Bool = true
    ) throws(SupervisionError) -> [Action] {
        if stopRequested { return [.end(.stopped)] }
        if now - upAt >= settings.wallLimit { return [.end(.wallLimitReached(seconds: settings.wallLimit / .seconds(1)))] }
        var actions = faults(now: now, running: running)
        for spec in settings.processes where !finished.contains(spec.name) && !running.contains(spec.name) {
            actions.append(try exited(spec, lastExits[spec.name], now: now))
        }
        // A process killed in this turn is seen dead, and restarted, in the next: the run does not
        // end before it has come back.
        let killing = actions.contains { if case .kill = $0 { true } else { false } }
        if !killing, !finishers.isEmpty, finished.isSuperset(of: finishers) {
            // Every rider process is done, but rides of a killed one end only when its restart
            // says Hello or dispatch expires its session: the run ends once the bus says no ride
            // is open (or after a grace well past the session timeout, and the verdict names what
            // stayed open), and in virtual time once the keeper has written the last window.
            let since = allFinishedAt ?? now
            allFinishedAt = since
            if openRides == 0 && timeStopped || now - since > settings.settleGrace { actions.append(.end(.completed)) }
        }
        return actions
    }

    /// The faults due at `now`: kills asked for, random kills of driver and rider processes,
    /// the monitor stalled and resumed.
    private mutating func faults(now: ContinuousClock.Instant, running: Set<String>) -> [Action] {
        var actions: [Action] = []
        for (index, kill) in pendingKills.enumerated().reversed() where now - upAt >= kill.after {
            pendingKills.remove(at: index)
            actions.append(.kill(kill.name))
            killedOnPurpose.insert(kill.name)
        }
        if let at = nextKill, now >= at, let every = settings.chaos.killEvery {
            let candidates = settings.processes.filter {
                $0.hostsApps && !finished.contains($0.name) && running.contains($0.name)
            }
            if let victim = candidates.randomElement(using: &random) {
                actions.append(.kill(victim.name))
                killedOnPurpose.insert(victim.name)
            }
            nextKill = now + Self.exponential(every, &random)
        }
        if let monitor, let at = nextStall, now >= at, let every = settings.chaos.stallMonitorEvery, running.contains(monitor) {
            actions.append(.stallMonitor(monitor))
            resumeMonitorAt = now + settings.chaos.stallFor
            nextStall = now + every
        }
        if let monitor, let at = resumeMonitorAt, now >= at {
            resumeMonitorAt = nil
            actions.append(.resumeMonitor(monitor))
        }
        return actions
    }

    /// A process found not running: finished, restarted, or the end of the run.
    private mutating func exited(
        _ spec: ProcessSpec, _ exit: Supervisor.Exit?, now: ContinuousClock.Instant
    )
        throws(SupervisionError) -> Action
    {
        if spec.finishesRun, exit?.isClean == true {
            finished.insert(spec.name)
            return .finished(spec.name)
        }
        switch spec.restart {
        case .never:
            throw SupervisionError.died(spec.name, exit)
        case .withBackoff(let limit, let window):
            // Only recent restarts count: a process that ran well for a while starts afresh.
            let recent = restartTimes[spec.name, default: []].filter { now - $0 < window }
            guard recent.count < limit else { throw SupervisionError.gaveUp(spec.name, restarts: recent.count, within: window) }
            restartTimes[spec.name] = recent + [now]
            // The first death in a while, and a kill of the run's own, are restarted at once (a
            // dispatch's restart is all of its recovery time); more deaths within the window wait
            // 250 ms, doubling each time.
            let onPurpose = killedOnPurpose.remove(spec.name) != nil
            return .restart(
                spec.name,
                backoff: recent.isEmpty || onPurpose ? .zero : .milliseconds(250 * (1 << min(recent.count - 1, 5))))
        }
    }

    /// A wait drawn from the exponential distribution with mean `mean` (faults at random times).
    static func exponential(_ mean: Duration, _ random: inout SeededGenerator) -> Duration {
        let uniform = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &random)
        return mean * (-Foundation.log(uniform))
    }
}
