import ArgumentParser
import Coordinator
import Foundation
import Topology

/// `ribcity launch TOPOLOGY`: the whole city as real processes, supervised, with the monitor.
struct LaunchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "Launch a city from a topology: bus, dispatch, driver and rider processes and the monitor, supervised; a run directory with logs and a summary."
    )

    @Argument(help: "The topology file (Topologies/*.yaml).")
    var topology: String

    @Option(help: "Simulated seconds per wall second (default: the topology's).")
    var speed: Double?

    @Option(help: "Where run directories go.")
    var runs = "runs"

    @Flag(help: "Run without the monitor process.")
    var noMonitor = false

    @Flag(help: "The monitor prints JSON lines (to its log, or the terminal).")
    var json = false

    @Option(help: "Stop the run after this many seconds of wall time (default: 3× the topology's duration at its speed, plus 2 minutes).")
    var wallLimit: Double?

    @Option(help: "Fault injection: kill PROCESS this many wall seconds after the city is up, as PROCESS@SECONDS (repeatable).")
    var kill: [String] = []

    func run() async throws {
        let plan = try readTopology(topology)
        let launch = LaunchPlan(topology: plan, topologyPath: (topology as NSString).standardizingPath, speed: speed, monitor: !noMonitor, monitorJSON: json)
        var options = Coordinator.Options()
        options.monitorToTerminal = true
        options.wallLimit = .seconds(wallLimit ?? (plan.duration / launch.speed * 3 + 120))
        options.kills = try kill.map { entry in
            let parts = entry.split(separator: "@")
            guard parts.count == 2, let seconds = Double(parts[1]), launch.processes.contains(where: { $0.name == parts[0] }) else {
                throw ValidationError("--kill \(entry): expected PROCESS@SECONDS with one of \(launch.processes.map(\.name).joined(separator: ", "))")
            }
            return (String(parts[0]), .milliseconds(Int64(seconds * 1000)))
        }
        let directory = try RunDirectory(parent: runs, name: plan.name, topologyFile: topology, resolved: "\(plan)\n")
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        let coordinator = Coordinator(plan: launch, directory: directory, executable: executable, options: options) { line in
            FileHandle.standardError.write(Data("launch: \(line)\n".utf8))
        }
        FileHandle.standardError.write(Data("launch: \(plan.name), \(launch.processes.count) processes, \(launch.speed)× wall time; run directory \(directory.path)\n".utf8))
        let signals = onInterrupt { Task { await coordinator.stop() } }
        defer { signals.forEach { $0.cancel() } }
        let summary = try await coordinator.run()
        print(summary.text)
        print("run directory: \(directory.path)")
        if summary.outcome.hasPrefix("failed") { throw ExitCode.failure }
    }
}
