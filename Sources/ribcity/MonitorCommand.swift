import ArgumentParser
import Foundation
import Monitor
import ProcessSupport
import Topology
import Wire
import ZeroMQ

/// `ribcity monitor --topology FILE`: follows the event bus and prints a summary every interval —
/// a progress line, or JSON with `--json`. Joining late, it asks dispatch for a snapshot first.
struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Follow the event bus: drivers and requests by state, per-minute counts, pickup waits, surge, gaps.",
        discussion: """
            Examples:
              # a run of that topology on this machine
              ribcity monitor --topology Topologies/downtown.yaml
              (ribcity launch prints the exact monitor command for its run: its sockets are named after it)
              # the same, and the live map and charts on http://127.0.0.1:8080/
              ribcity monitor --topology Topologies/downtown.yaml --web 8080
            """
    )

    @OptionGroup var topologyFile: TopologyArgument
    var topology: String { topologyFile.path }

    @Option(help: "Event bus endpoint (default: from the topology).")
    var bus: String?

    @Option(help: "The bus proxy's publisher endpoint, where the monitor says it is ready (default: from the topology).")
    var publishTo: String?

    @Option(
        help:
            "Dispatch's sessions endpoint, for the snapshot; once per shard, in shard order, when dispatch is sharded (default: from the topology)."
    )
    var sessions: [String] = []

    @Flag(help: "Print one JSON object per interval instead of a line.")
    var json = false

    @Option(help: "Seconds of wall time between reports.")
    var refresh = 1.0

    @Option(help: "Stop after this many seconds of wall time (default: until Ctrl-C).")
    var wallLimit: Double?

    @Option(help: "The run's directory, to show on the dashboard (ribcity launch passes it).")
    var runDirectory: String?

    @Option(help: "Also serve the run's live map, charts and metrics on this port (ribcity-web, as long as the monitor runs).")
    var web: Int?

    /// How long the monitor waits for a run before it says there is nothing to watch.
    static let patience = Duration.seconds(3)

    func run() async throws {
        let plan = try readTopology(topology)
        let endpoints = plan.endpoints.dispatch(run: plan.name, temporaryDirectory: NSTemporaryDirectory())
        let shardSessions =
            sessions.isEmpty
            ? plan.endpoints.shardSessions(plan.dispatchShards, run: plan.name, temporaryDirectory: NSTemporaryDirectory())
            : sessions
        try await Transport.using(name: "monitor-io") { transport in
            let busIn = plan.endpoints.bus(run: plan.name, temporaryDirectory: NSTemporaryDirectory()).publish
            try await secureRole(
                transport, as: "monitor", sessions: shardSessions, bus: [bus ?? endpoints.bus, publishTo ?? busIn])
            let sub = try await transport.socket(.sub, options: .eventBus)
            try await sub.connect(bus ?? endpoints.bus)
            try await sub.subscribe(Topic.dispatch)
            try await sub.subscribe(Topic.status)
            try await sub.subscribe(Topic.notice)
            let keeper = BoardKeeper()
            // Told to stop from the moment it says it is ready (the keeper remembers a stop).
            let signals = await onInterrupt { Task { await keeper.stop() } }
            let terminal = isatty(STDOUT_FILENO) == 1
            let dealers = try await askEveryShardForSnapshot(at: shardSessions, on: transport, as: "monitor")
            // To standard error: the log keeps it even when the dashboard has the terminal.
            FileHandle.standardError.write(Data("monitor pid \(getpid()) ready: following \(bus ?? endpoints.bus)\n".utf8))
            let readiness = try await ReadinessAnnouncer(
                role: .monitor, processID: "monitor", bus: publishTo ?? busIn, on: transport)
            let page = try web.map { port in
                try WebMonitorProcess(
                    program: try webMonitorProgram(),
                    arguments: [
                        "--topology", topology, "--port", String(port), "--bus", bus ?? endpoints.bus, "--publish-to",
                        publishTo ?? busIn,
                    ] + shardSessions.flatMap { ["--sessions", $0] } + (runDirectory.map { ["--run-directory", $0] } ?? []))
            }
            defer { page?.stop() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // The snapshots first (the Clone pattern), a shard's after another's: bus events
                    // wait in the SUB's queue meanwhile.
                    for (process, dealer) in dealers {
                        while true {
                            let reply = try Frames.direct(await dealer.receive().frames)
                            if case .snapshotChunk(let chunk)? = reply.body {
                                await keeper.snapshot(chunk, from: process)
                                if chunk.last { break }
                            }
                        }
                    }
                    for try await batch in sub.batches() {
                        var envelopes: [Envelope] = []
                        for message in batch {
                            if let published = try? Frames.Published(frames: message.frames) {
                                envelopes.append(published.envelope)
                            }
                        }
                        await keeper.apply(envelopes)
                    }
                }
                group.addTask {
                    let started = ContinuousClock.now
                    var context = DashboardContext(
                        name: plan.name, clock: ClockTimeOfDay(startSecondOfDay: plan.startSecondOfDay),
                        durationSeconds: plan.duration, runDirectory: runDirectory)
                    // The first report heard from the run: where the rate of simulated time is measured from.
                    var firstHeard: (wall: ContinuousClock.Instant, simulated: Double)?
                    while await !keeper.stopped, wallLimit.map({ ContinuousClock.now - started < .seconds($0) }) ?? true {
                        try await Task.sleep(for: .seconds(refresh))
                        guard await keeper.heardFromTheRun else {
                            // Zeros would say an empty city; the truth is that nothing answers (yet).
                            if ContinuousClock.now - started < Self.patience { continue }
                            let waited = Int((ContinuousClock.now - started) / .seconds(1))
                            FileHandle.standardError.write(
                                Data(
                                    ("monitor: nothing to watch after \(waited) s — no snapshot from dispatch at "
                                        + "\(shardSessions.joined(separator: ", ")) and no events on \(bus ?? endpoints.bus). Is a run of "
                                        + "\(plan.name) going? `ribcity launch` prints the monitor command for its run.\n").utf8))
                            continue
                        }
                        let report = await keeper.report()
                        if let first = firstHeard {
                            let wall = (ContinuousClock.now - first.wall) / .seconds(1)
                            if wall > 0 { context.simulatedPerWallSecond = (report.simTimeSeconds - first.simulated) / wall }
                        } else {
                            firstHeard = (.now, report.simTimeSeconds)
                        }
                        // Written straight to the file descriptor: a pipe gets each line as it is made. A
                        // terminal gets the dashboard redrawn in place; pipes and CI get plain lines.
                        let text =
                            json
                            ? report.json
                            : terminal ? "\u{1B}[H\u{1B}[2J" + report.dashboard(context) : report.line(clock: context.clock)
                        FileHandle.standardOutput.write(Data((text + "\n").utf8))
                    }
                }
                try await group.next()
                group.cancelAll()
            }
            signals.forEach { $0.cancel() }
            readiness.stop()
        }
    }
}
