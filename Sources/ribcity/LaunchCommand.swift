import ArgumentParser
import Coordinator
import Foundation
import ProcessSupport
import Topology
import Wire

/// What `launch` and `stress` share: the topology, speed, run directory, monitor and limits.
struct LaunchOptions: ParsableArguments {
    @OptionGroup var topologyFile: TopologyArgument
    var topology: String { topologyFile.path }

    @Option(help: "Simulated seconds per wall second (default: the topology's).")
    var speed: Double?

    @Option(help: "Where run directories go.")
    var runs = "runs"

    @Flag(help: "Run without the monitor process.")
    var noMonitor = false

    @Flag(help: "The monitor prints JSON lines (to its log, or the terminal).")
    var json = false

    @Option(help: "Serve the run's live map, charts and metrics on this port (ribcity-web; default: the topology's monitor.web).")
    var web: Int?

    @Option(help: "Keep the web page up this many seconds after the run ends (its summary and verdict stay on it).")
    var webLinger: Double?

    @Option(
        help:
            "Stop the run after this many seconds of wall time (default: 3× the topology's duration at its speed, plus 2 min; in virtual time, 1 h per 10 simulated hours, plus 10 min)."
    )
    var wallLimit: Double?

    @Option(
        help: ArgumentHelp(
            "Fault injection: kill PROCESS this many wall seconds after the city is up, as PROCESS@SECONDS (repeatable); "
                + "in virtual time, at that simulated second."))
    var kill: [String] = []

    @Flag(
        help: "Virtual time: as fast as every process is done with each moment, the same run every time (docs/ARCHITECTURE.md).")
    var virtual = false

    @Option(
        help: ArgumentHelp(
            "CURVE keys made beforehand with `ribcity keys` (a city across hosts: every host holds the same directory) "
                + "instead of fresh ones in the run directory.", valueName: "directory"))
    var keys: String?

    /// Runs the city with `configure` applied to the coordinator's options; prints the summary.
    /// With `record`, the bus is recorded to `events.pb` (and into `run.sqlite`, when `ribcity-recorder` is built).
    func run(
        record: Bool, hostArguments: [String] = [], riderArguments: [String] = [], dispatchArguments: [String] = [],
        configure: (inout Coordinator.Options) -> Void = { _ in }
    ) async throws -> RunSummary {
        let plan = try readTopology(topology)
        let program = try processProgram()
        // What this run is: the file with the command line's speed and clock mode in it.
        var resolved = plan
        if let speed { resolved.speed = speed }
        if virtual { resolved.clockMode = .virtual }
        let directory = try RunDirectory(
            parent: runs, name: plan.name, topologyFile: topology, resolved: TopologyWriter.yaml(resolved))
        let recorder = programBesideRibcity("ribcity-recorder")
        let sqlite = record && FileManager.default.isExecutableFile(atPath: recorder)
        if record && !sqlite {
            FileHandle.standardError.write(
                Data(
                    ("launch: no run.sqlite: ribcity-recorder is not built beside ribcity "
                        + "(swift build --product ribcity-recorder)\n").utf8))
        }
        let webPort = web ?? plan.webPort
        let webProgram = try webPort.map { _ in try webMonitorProgram() } ?? ""
        // The rides are drawn here once and handed to every host, unless some host is another
        // machine (it draws its own) or the riders draw another demand (the overload search's scale).
        let handsOverDemand = plan.hosts.count <= 1 && riderArguments.isEmpty
        let demandFile = directory.file("placed-demand.pb")
        let demand = handsOverDemand ? ["--demand", demandFile] : []
        let launch = LaunchPlan(
            topology: plan, topologyPath: (topology as NSString).standardizingPath, speed: speed, monitor: !noMonitor,
            monitorJSON: json, hostArguments: hostArguments + demand, riderArguments: riderArguments,
            dispatchArguments: dispatchArguments,
            journal: directory.file("dispatch.journal"),
            recorder: sqlite ? (recorder, directory.file("run.sqlite")) : nil, web: webPort.map { (webProgram, $0) },
            virtual: virtual,
            run: "\((directory.path as NSString).lastPathComponent)-\(getpid())", runDirectory: directory.path)
        var options = Coordinator.Options()
        options.monitorToTerminal = true
        options.wallLimit = wallLimit.map { .seconds($0) } ?? launch.defaultWallLimit
        options.kills = try kill.map { entry in
            let parts = entry.split(separator: "@")
            guard parts.count == 2, let seconds = Double(parts[1]), launch.processes.contains(where: { $0.name == parts[0] })
            else {
                throw ValidationError(
                    "--kill \(entry): expected PROCESS@SECONDS with one of "
                        + launch.processes.map(\.name).joined(separator: ", "))
            }
            return (String(parts[0]), .milliseconds(Int64(seconds * 1000)))
        }
        options.record = record
        options.keys = keys
        if keys == nil, plan.usesCurve, launch.processes.contains(where: { $0.host != nil }) {
            throw ValidationError(
                "\(topology) places processes on other hosts over CURVE: make the keys once with `ribcity keys --topology "
                    + "\(topology) --out DIR`, give every host the directory, and launch with --keys DIR")
        }
        options.webLinger = webLinger.map { .milliseconds(Int64($0 * 1_000)) }
        // Drawn from now on, on a thread of its own, while dispatch starts (seconds of work on whole
        // Manhattan); the hosts start once it is written.
        let drawing =
            handsOverDemand
            ? Task { [plan] in try await onDedicatedThread("draw-demand") { try writePlacedDemand(of: plan, to: demandFile) } }
            : nil
        if let drawing { options.beforeHosts = { try await drawing.value } }
        configure(&options)
        // With the monitor's dashboard on the terminal, the launch's own lines go to launch.log (and
        // to the dashboard's panel of events, as notices on the bus) instead of through the dashboard.
        let logFile = !noMonitor && isatty(STDOUT_FILENO) == 1 ? try directory.log(for: "launch") : nil
        let coordinator = Coordinator(plan: launch, directory: directory, executable: program, options: options) {
            line in
            (logFile ?? FileHandle.standardError).write(Data("launch: \(line)\n".utf8))
        }
        FileHandle.standardError.write(
            Data(
                ("launch: \(plan.name), \(launch.processes.count) processes, "
                    + (launch.virtual ? "virtual time" : "\(launch.speed)× wall time") + "; "
                    + "run directory \(directory.path)\n"
                    + "launch: to watch it from elsewhere: ribcity monitor --topology \(topology) --bus \(launch.busSubscribe) "
                    + launch.sessions.map { "--sessions \($0) " }.joined() + "--publish-to \(launch.busPublish)\n"
                    + joinHint(launch)
                    + (webPort.map { "launch: the run's page: http://127.0.0.1:\($0)/ (metrics at /metrics)\n" } ?? "")).utf8))
        let signals = await onInterrupt { Task { await coordinator.stop() } }
        defer { signals.forEach { $0.cancel() } }
        let summary = try await coordinator.run()
        print(summary.text)
        print("run directory: \(directory.path)")
        return summary
    }
}

/// How to start the processes the topology places on other hosts ("" when there are none).
private func joinHint(_ launch: LaunchPlan) -> String {
    launch.processes.compactMap { spec in
        spec.host.map { host in
            "launch: \(spec.name) runs on \(host.name) (\(host.address)): start it there with "
                + "ribcity \(spec.role == .drivers ? "drivers" : "riders") --topology FILE --process "
                + "\(spec.name.split(separator: "-").last ?? "0") --join \(launch.busPublish)\n"
        }
    }.joined()
}

/// `ribcity launch TOPOLOGY`: the whole city as real processes, supervised, with the monitor.
struct LaunchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract:
            "Launch a city from a topology: bus, dispatch, driver and rider processes and the monitor, supervised; "
            + "a run directory with logs and a summary.",
        discussion: """
            Examples:
              # real streets, one hour at 60×, with the monitor
              ribcity launch Topologies/downtown.yaml
              # as fast as the machine allows, the same every run
              ribcity launch Topologies/metro.yaml --virtual
              ribcity launch Topologies/downtown.yaml --no-monitor --json --wall-limit 300
              ribcity launch Topologies/downtown.yaml --kill drivers-0@20 --record
            """
    )

    @OptionGroup var options: LaunchOptions

    @Flag(help: "Record every bus message to events.pb in the run directory (for ribcity report).")
    var record = false

    func run() async throws {
        let summary = try await options.run(record: record)
        if summary.outcome.exitStatus != 0 { throw ExitCode(summary.outcome.exitStatus) }
    }
}

/// `ribcity stress TOPOLOGY`: the city under injected faults, recorded, with a verdict.
struct StressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract:
            "Run a city under injected faults and check, from the recorded run, every promise dispatch makes; "
            + "exits non-zero when one broke.",
        discussion: """
            Examples:
              ribcity stress Topologies/downtown.yaml --kill-every 20 --malformed-rate 50
              ribcity stress Topologies/downtown.yaml --kill-dispatch 30 --forge-rate 5 --seed 3
              ribcity stress Topologies/metro.yaml --virtual --message-faults drop=0.01,delay=0.05:200ms
            """
    )

    @OptionGroup var options: LaunchOptions

    @Option(help: "Kill (SIGKILL) a random driver or rider process on average every this many wall seconds.")
    var killEvery: Double?

    @Option(
        help:
            "Kill dispatch itself this many wall seconds after the city is up (repeatable); it restores the run from its journal."
    )
    var killDispatch: [Double] = []

    @Option(help: "Malformed frames sent to dispatch per wall second.")
    var malformedRate = 0.0

    @Option(help: "Stop the monitor for 2 s every this many wall seconds (a slow consumer).")
    var stallMonitorEvery: Double?

    @Option(help: "Messages per wall second flooding the bus under a topic nobody reads.")
    var floodRate = 0.0

    @Option(
        help:
            "Forged commands per wall second: a session of its own acting for others' riders and drivers; every one must be refused (wall-clock runs)."
    )
    var forgeRate = 0.0

    @Option(help: "Faults in what driver and rider processes send to dispatch: drop=P,duplicate=P,delay=P:200ms (any subset).")
    var messageFaults: String?

    @Option(
        help: "Faults in what dispatch sends to sessions (replies, offers, legs, trip updates): drop=P,duplicate=P,delay=P:200ms."
    )
    var dispatchFaults: String?

    @Option(help: "Seeds which processes are killed when, and the garbage sent.")
    var seed: UInt64 = 1

    func validate() throws {
        if options.virtual, forgeRate > 0 {
            throw ValidationError(
                "--forge-rate runs on the wall clock: the forger is no participant of virtual time, and its session would change what the run records; leave out --virtual"
            )
        }
    }

    func run() async throws {
        let hostArguments = try FaultOptions.arguments(messageFaults, seed: seed)
        let dispatchArguments = try FaultOptions.arguments(dispatchFaults, seed: seed)
        // Sharded, the first shard is the one killed (the others serve on).
        let dispatch = WireIDs.dispatchProcess(shard: 0, of: try readTopology(options.topology).dispatchShards)
        let summary = try await options.run(record: true, hostArguments: hostArguments, dispatchArguments: dispatchArguments) {
            options in
            for seconds in killDispatch { options.kills.append((dispatch, .milliseconds(Int64(seconds * 1000)))) }
            options.chaos = ChaosPlan(
                killEvery: killEvery.map { .milliseconds(Int64($0 * 1000)) },
                malformedPerSecond: malformedRate,
                stallMonitorEvery: stallMonitorEvery.map { .milliseconds(Int64($0 * 1000)) },
                floodPerSecond: floodRate, forgePerSecond: forgeRate, seed: seed)
        }
        if summary.outcome == .stopped { throw ExitCode(summary.outcome.exitStatus) }
        if summary.verdict?.passed != true { throw ExitCode.failure }
    }
}

/// `ribcity report RUN_DIR`: a recorded run's summary and verdict, again.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print a run's KPI summary and, when it was recorded (stress, launch --record), its verdict.",
        discussion: """
            Examples:
              # the run that ended last in runs/
              ribcity report
              # that run's summary and verdict
              ribcity report runs/downtown-20261124-101500
              # and a page with its charts, runs/downtown-20261124-101500/report.html
              ribcity report runs/downtown-20261124-101500 --html
            """
    )

    @Argument(help: "A run directory (runs/NAME-TIME); the run that ended last in --runs if none.")
    var runDirectory: String?

    @Option(help: "Where runs are kept (for the latest run).")
    var runs = "runs"

    @Flag(help: "Also write report.html in the run directory: one page with the KPIs and charts, no network needed.")
    var html = false

    func run() throws {
        let directory: RunDirectory
        if let runDirectory {
            directory = RunDirectory(existing: runDirectory)
        } else {
            guard let latest = RunDirectory.latest(in: runs) else {
                throw ValidationError(
                    "no finished run in \(runs)/: name a run directory, or launch a city first (ribcity launch TOPOLOGY)")
            }
            directory = latest
            print("run directory: \(latest.path)")
        }
        var summary: RunSummary
        do {
            summary = try directory.summary()
        } catch {
            throw BadInput(error.description)
        }
        if FileManager.default.fileExists(atPath: directory.file("events.pb")) {
            do {
                summary.verdict = try Coordinator.verdict(of: directory, summary: summary)
            } catch {
                throw BadInput("\(error)")
            }
        }
        print(summary.text)
        if html {
            do {
                try directory.write(try HTMLReport(directory, summary: summary).html, to: "report.html")
            } catch let error as RunComparisonError {
                throw BadInput(error.description)
            }
            print("report: \(directory.file("report.html"))")
        }
        if summary.verdict.map({ !$0.passed }) ?? false { throw ExitCode.failure }
    }
}

/// `ribcity compare RUN_A RUN_B`: two runs' KPIs side by side with their differences.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Put two runs' KPIs side by side with their differences (an A/B comparison).",
        discussion: """
            Reads each run directory's summary.json, trips.csv and drivers.csv. Examples:
              ribcity compare runs/downtown-20261124-101500 runs/downtown-20261124-103000
            Runs in virtual time (--virtual) differ only by what was changed between them; a \
            wall-clock run that fell behind the clock is flagged, its KPIs depending on the machine.
            """
    )

    @Argument(help: "The first run directory (A).")
    var runA: String

    @Argument(help: "The second run directory (B).")
    var runB: String

    func run() throws {
        do {
            print(try RunComparison(RunDirectory(existing: runA), RunDirectory(existing: runB)).text)
        } catch let error as RunComparisonError {
            throw BadInput(error.description)
        }
    }
}
