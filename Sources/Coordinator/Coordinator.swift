import Foundation
import Monitor
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
        /// How long a process may take to stop after SIGTERM before it is killed.
        public var stopGrace: Duration = .seconds(10)
        /// Fault injection: processes to kill (SIGKILL) this long after the city is up.
        public var kills: [(name: String, after: Duration)] = []
        /// The monitor's output goes to the terminal instead of its log.
        public var monitorToTerminal = false
        public init() {}
    }

    public let plan: LaunchPlan
    public let directory: RunDirectory
    private let options: Options
    private let supervisor: Supervisor
    private let board = BoardKeeper()
    private var stopRequested = false
    private var log: (String) -> Void

    public init(plan: LaunchPlan, directory: RunDirectory, executable: URL, options: Options,
                log: @escaping @Sendable (String) -> Void) {
        self.plan = plan
        self.directory = directory
        self.options = options
        self.log = log
        supervisor = Supervisor(executable: executable, directory: directory)
    }

    /// Ends the run (Ctrl-C, SIGTERM): processes stop in reverse order.
    public func stop() { stopRequested = true }

    /// Runs the city and returns its summary (also written to the run directory).
    public func run() async throws -> RunSummary {
        let started = ContinuousClock.now
        let transport = try Transport(name: "launch-io")
        let proxy = try await Proxy.start(on: transport, frontend: .init(.xsub, bind: plan.busPublish, options: .eventBus),
                                          backend: .init(.xpub, bind: plan.busSubscribe, options: .eventBus))
        let tap = try await transport.socket(.sub, options: .eventBus)
        try await tap.connect(plan.busSubscribe)
        try await tap.subscribe("")
        let reader = Task { [board] in
            for try await batch in tap.batches() {
                await board.apply(batch.compactMap { try? Frames.Published(frames: $0.frames).envelope })
            }
        }
        var outcome = "stopped"
        do {
            outcome = try await startAndSupervise()
        } catch {
            outcome = "failed: \(error)"
        }
        for spec in plan.processes.reversed() {
            await supervisor.stop(spec.name, grace: options.stopGrace)
        }
        // The last status reports and events are on their way through the bus.
        try? await Task.sleep(for: .milliseconds(300))
        reader.cancel()
        await proxy.stop()
        await transport.shutdown()
        let summary = RunSummary(topology: plan.topology.name, outcome: outcome, wallSeconds: (ContinuousClock.now - started) / .seconds(1),
                                 speed: plan.speed, kpis: MonitorReport(await board.current), processes: await supervisor.records)
        try directory.write(summary.json + "\n", to: "summary.json")
        try directory.write(summary.text + "\n", to: "summary.txt")
        return summary
    }

    private func startAndSupervise() async throws -> String {
        for spec in plan.processes {
            try await supervisor.start(spec.name, arguments: spec.arguments, toTerminal: toTerminal(spec))
            try await supervisor.waitUntilReady(spec.name, timeout: options.readyTimeout)
            log("\(spec.name) ready (pid \(await supervisor.pid(of: spec.name) ?? 0))")
        }
        let upAt = ContinuousClock.now
        let deadline = upAt + options.wallLimit
        var pendingKills = options.kills
        var finished: Set<String> = []
        let finishers = Set(plan.processes.filter(\.finishesRun).map(\.name))
        while true {
            if stopRequested { return "stopped" }
            if ContinuousClock.now >= deadline { return "stopped: wall-time limit of \(options.wallLimit) reached" }
            for (index, kill) in pendingKills.enumerated().reversed() where ContinuousClock.now - upAt >= kill.after {
                pendingKills.remove(at: index)
                log("killing \(kill.name) (fault injection)")
                await supervisor.signal(kill.name, SIGKILL)
            }
            try await Task.sleep(for: .milliseconds(100))
            for spec in plan.processes where !finished.contains(spec.name) {
                guard await !supervisor.isRunning(spec.name) else { continue }
                let record = await supervisor.records[spec.name]
                let lastExit = record?.exits.last ?? "exited"
                if spec.finishesRun, lastExit == "exited with status 0" {
                    finished.insert(spec.name)
                    log("\(spec.name) finished")
                    continue
                }
                switch spec.restart {
                case .never:
                    throw SupervisionError.died(spec.name, lastExit)
                case .withBackoff(let limit):
                    let restarts = record?.restarts ?? 0
                    guard restarts < limit else { throw SupervisionError.gaveUp(spec.name, restarts: restarts) }
                    let backoff = Duration.milliseconds(250 * (1 << min(restarts, 5)))
                    log("\(spec.name) \(lastExit); restarting in \(backoff)")
                    try await Task.sleep(for: backoff)
                    let simulated = Double(await board.current.simTimeMs) / 1000
                    try await supervisor.start(spec.name, arguments: spec.arguments + spec.restartArguments(simulated),
                                               toTerminal: toTerminal(spec))
                    try await supervisor.waitUntilReady(spec.name, timeout: options.readyTimeout)
                    log("\(spec.name) restarted (pid \(await supervisor.pid(of: spec.name) ?? 0))")
                }
            }
            if !finishers.isEmpty, finished == finishers { return "completed" }
        }
    }
}

extension Coordinator {
    private func toTerminal(_ spec: ProcessSpec) -> Bool { spec.name == "monitor" && options.monitorToTerminal }
}

/// Why supervision ended a run.
public enum SupervisionError: Error, CustomStringConvertible {
    case died(String, String)
    case gaveUp(String, restarts: Int)

    public var description: String {
        switch self {
        case .died(let name, let how): "\(name) \(how), and is not restarted"
        case .gaveUp(let name, let restarts): "\(name) kept dying: gave up after \(restarts) restarts"
        }
    }
}
