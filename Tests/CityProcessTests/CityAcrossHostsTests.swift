import Foundation
import TestSupport
import Testing

/// A process on a host of its own, kept running by a stand-in for the host's service manager:
/// started again whenever it exits with a failure (systemd's `Restart=on-failure`).
final class ManagedProcess: Sendable {
    private let task: Task<Int, any Error>
    private let current: Current

    private actor Current {
        var process: Process?
        func set(_ process: Process) { self.process = process }
        func kill() { if let process { Foundation.kill(process.processIdentifier, SIGKILL) } }
    }

    /// Starts `make()` and keeps it going until it exits cleanly; counts its starts. Each start
    /// and exit is noted in `log` (the process's own log), so that a failure shows what its
    /// manager saw.
    init(log: URL, _ make: @escaping @Sendable () throws -> Process) {
        let current = Current()
        self.current = current
        task = Task {
            var starts = 0
            while true {
                let process = try make()
                await current.set(process)
                let status = await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
                    process.terminationHandler = { done.resume(returning: $0.terminationStatus) }
                    do { try ChildProcess.run(process) } catch { done.resume(returning: -1) }
                }
                starts += 1
                Self.note("start \(starts), pid \(process.processIdentifier), ended: status \(status)", in: log)
                if status == 0 || Task.isCancelled { return starts }
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    private static func note(_ line: String, in log: URL) {
        guard let handle = try? FileHandle(forWritingTo: log) else { return }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data("--- its manager: \(line)\n".utf8))
    }

    /// Kills the running start (SIGKILL), as a crash would.
    func kill() async { await current.kill() }

    /// How many times it was started, once it has exited cleanly.
    func starts() async throws -> Int { try await task.value }

    func stop() { task.cancel() }
}

@Suite(
    "A city across hosts: network namespaces stand in for three machines",
    .serialized,
    .enabled(if: NetworkHosts.available, "needs root and `ip netns` (iproute2) with a kernel that allows network namespaces"))
struct CityAcrossHostsTests {
    /// A small city, its drivers on `fleet` and its riders on `town` when `across`; on one host
    /// (the same file without its hosts) otherwise; with `shards` dispatch shards on the hub.
    static func topology(name: String, across: Bool, shards: Int = 1, speed: Double = 60) -> String {
        """
        name: \(name)
        city: { grid: { width_m: 2000, height_m: 2000, block_m: 250, speed_kmh: 36 } }
        clock: { speed: \(speed), duration: 15m }
        seed: 7
        dispatch: { strategy: batched, interval_s: 10, offer_timeout_s: 30, shards: \(shards) }
        drivers: { processes: 2, per_process: 8, acceptance: [0.7, 1.0], response_s: [1, 5]\(across ? ", host: fleet" : "") }
        riders:
          processes: 2
        \(across ? "  host: town\n" : "")  demand: { synthetic: { peak_per_hour: 240, min_trip_m: 400 } }
          patience_s: [300, 600]
          scheduled_share: 0
        endpoints: { transport: tcp, base_port: 7550 }
        """
            + (across
                ? """

                hosts:
                  - { name: hub, address: \(NetworkHosts.hubAddress) }
                  - { name: fleet, address: 10.77.1.2 }
                  - { name: town, address: 10.77.2.2 }
                """ : "")
    }

    /// Makes the three hosts and a directory for a test's files, runs `body`, and removes both.
    static func withHosts(_ body: (NetworkHosts, URL) async throws -> Void) async throws {
        let hosts = try NetworkHosts()
        defer { hosts.remove() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ribcity-hosts-\(hosts.suffix)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // RIBCITY_KEEP_TEST_RUNS=1 keeps the runs' directories to look into afterwards.
        defer {
            if ProcessInfo.processInfo.environment["RIBCITY_KEEP_TEST_RUNS"] == nil {
                try? FileManager.default.removeItem(at: directory)
            }
        }
        try await body(hosts, directory)
    }

    /// A run across the three hosts: the coordinator launched on `hub`, every other process
    /// started on its host by a stand-in for its service manager.
    struct RunAcross {
        let hosts: NetworkHosts
        let directory: URL
        let launchLog: URL
        let launched: Task<Int32, Never>
        let joiners: [String: ManagedProcess]

        init(hosts: NetworkHosts, directory: URL, topology: URL, command: String = "launch", extra: [String] = []) async throws {
            self.hosts = hosts
            self.directory = directory
            let keys = directory.appendingPathComponent("keys").path
            let made = try await CommandRun.ribcity(["keys", "--topology", topology.path, "--out", keys])
            #expect(made.status == 0, "\(made.output)")
            launchLog = directory.appendingPathComponent("\(command).out")
            let launch = try hosts.process(
                on: "hub",
                [ribcityBinary!, command, topology.path, "--keys", keys, "--no-monitor"]
                    + (command == "launch" ? ["--record"] : [])
                    + ["--runs", directory.appendingPathComponent("runs").path, "--wall-limit", "\(Int(150 * hangGuardScale))"]
                    + extra, log: launchLog)
            launched = Task {
                await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
                    launch.terminationHandler = { done.resume(returning: $0.terminationStatus) }
                    do { try ChildProcess.run(launch) } catch { done.resume(returning: -1) }
                }
            }
            var joiners: [String: ManagedProcess] = [:]
            for (role, host) in [("drivers", "fleet"), ("riders", "town")] {
                for index in 0..<2 {
                    let name = "\(role)-\(index)"
                    let log = directory.appendingPathComponent("\(name).out")
                    joiners[name] = ManagedProcess(log: log) {
                        try hosts.process(
                            on: host,
                            [
                                ribcityBinary!, role, "--topology", topology.path, "--process", "\(index)", "--join",
                                "tcp://\(NetworkHosts.hubAddress):7552", "--join-timeout", "60",
                            ], log: log, environment: ["RIBCITY_KEYS": keys])
                    }
                }
            }
            self.joiners = joiners
        }

        var output: String { (try? String(contentsOf: launchLog, encoding: .utf8)) ?? "" }

        /// The ends of what the processes on the other hosts wrote, every start of each, for a failure's message.
        var hostLogs: String {
            joiners.keys.sorted().map { name in
                let text = (try? String(contentsOf: directory.appendingPathComponent("\(name).out"), encoding: .utf8)) ?? ""
                return "--- \(name) on its host:\n" + text.suffix(3_000)
            }.joined(separator: "\n")
        }

        /// The run directory `launch` made (the newest, when there are several).
        var runDirectory: URL? {
            let runs = directory.appendingPathComponent("runs")
            return (try? FileManager.default.contentsOfDirectory(atPath: runs.path))?.sorted().last.map {
                runs.appendingPathComponent($0)
            }
        }

        func stop() { joiners.values.forEach { $0.stop() } }
    }

    @Test(
        "Coordinator and two dispatch shards on one host, drivers on a second, riders on a third: the city completes with every request accounted for, a crashed driver process restarted by its host rejoins, and a link cut for 4 s heals"
    )
    func cityAcrossThreeHosts() async throws {
        try await Self.withHosts { hosts, directory in
            let topology = directory.appendingPathComponent("city.yaml")
            // On the wall clock, slower under a sanitizer: at 60× its processes, four times slower,
            // let riders give up on half the rides (40 of 80 completed in a CI rehearsal).
            try Self.topology(name: "across-\(hosts.suffix)", across: true, shards: 2, speed: 60 / hangGuardScale)
                .write(to: topology, atomically: true, encoding: .utf8)
            let run = try await RunAcross(hosts: hosts, directory: directory, topology: topology)
            defer { run.stop() }
            let launchLog = run.launchLog
            @Sendable func launchOutput() -> String { (try? String(contentsOf: launchLog, encoding: .utf8)) ?? "" }
            try await within(60, "every host's processes joined") {
                while !launchOutput().contains("riders-1 ready") { try await Task.sleep(for: .milliseconds(100)) }
            }
            // A crash on the fleet host: its manager starts the process again, and it rejoins.
            try await Task.sleep(for: .seconds(2))
            await run.joiners["drivers-1"]!.kill()
            // Then the hub loses both links for 4 s.
            try await Task.sleep(for: .seconds(3))
            try hosts.setLink(toward: "fleet", up: false)
            try hosts.setLink(toward: "town", up: false)
            try await Task.sleep(for: .seconds(4))
            try hosts.setLink(toward: "fleet", up: true)
            try hosts.setLink(toward: "town", up: true)

            let launched = run.launched
            let status = try await within(180, "the run across hosts") { await launched.value }
            let output = launchOutput()
            #expect(status == 0, "\(output)\n\(run.hostLogs)")
            #expect(output.contains("verdict: every check passed"), "\(output)")
            #expect(output.contains("held in all 2 shards"), "\(output)")
            #expect(output.contains("every request accounted for"), "\(output)")
            #expect(output.contains("drivers-1 joined from") && output.contains("life 2"), "\(output)")
            #expect(output.contains("drivers-1 exited with status -1 (started again on its host); restarting"), "\(output)")
            let data = try Data(contentsOf: try #require(run.runDirectory).appendingPathComponent("summary.json"))
            let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let totals = (summary["kpis"] as? [String: Any])?["totals"] as? [String: Int] ?? [:]
            #expect((totals["requests"] ?? 0) > 40, "\(totals)")
            #expect((totals["completed"] ?? 0) > (totals["requests"] ?? 0) / 2, "\(totals)")
            let processes = summary["processes"] as? [String: [String: Any]] ?? [:]
            #expect(processes["drivers-1"]?["starts"] as? Int == 2, "\(processes)")
            #expect(processes["riders-0"]?["starts"] as? Int == 1, "\(processes)")
            // Every process on the other hosts left when the run ended, cleanly.
            for name in ["drivers-0", "drivers-1", "riders-0", "riders-1"] {
                let joiner = run.joiners[name]!
                let starts = try await within(30, "\(name) ended") { try await joiner.starts() }
                #expect(starts == (name == "drivers-1" ? 2 : 1), "\(name)")
            }
        }
    }

    @Test("In virtual time a city across three hosts records byte for byte what the same city records on one")
    func virtualAcrossIsTheSame() async throws {
        try await Self.withHosts { hosts, directory in
            let across = directory.appendingPathComponent("across.yaml")
            let one = directory.appendingPathComponent("one.yaml")
            try Self.topology(name: "virtual", across: true).write(to: across, atomically: true, encoding: .utf8)
            try Self.topology(name: "virtual", across: false).write(to: one, atomically: true, encoding: .utf8)
            let alone = try await CommandRun.ribcity([
                "launch", one.path, "--virtual", "--record", "--no-monitor", "--runs",
                directory.appendingPathComponent("one").path,
            ])
            #expect(alone.status == 0, "\(alone.output)")
            let run = try await RunAcross(hosts: hosts, directory: directory, topology: across, extra: ["--virtual"])
            defer { run.stop() }
            let launched = run.launched
            let status = try await within(120, "the virtual run across hosts") { await launched.value }
            #expect(status == 0, "\(run.output)\n\(run.hostLogs)")
            let runs = directory.appendingPathComponent("one")
            let oneRun = try #require(try FileManager.default.contentsOfDirectory(atPath: runs.path).first)
            let onOne = try Data(contentsOf: runs.appendingPathComponent(oneRun).appendingPathComponent("events.pb"))
            let onThree = try Data(contentsOf: try #require(run.runDirectory).appendingPathComponent("events.pb"))
            #expect(onOne.count > 10_000)
            #expect(onOne == onThree, "\(onOne.count) bytes on one host, \(onThree.count) across three")
        }
    }

    @Test(
        "A virtual-time chaos seed across hosts replays byte for byte: processes on other hosts killed by abrupt stops at simulated instants, started again by their hosts, the same faults, recording and verdict twice"
    )
    func virtualStressAcrossReplays() async throws {
        try await Self.withHosts { hosts, directory in
            let topology = directory.appendingPathComponent("city.yaml")
            try Self.topology(name: "chaos", across: true).write(to: topology, atomically: true, encoding: .utf8)
            var recordings: [Data] = []
            var faults: [String] = []
            for attempt in 0..<2 {
                let attemptDirectory = directory.appendingPathComponent("attempt-\(attempt)")
                try FileManager.default.createDirectory(at: attemptDirectory, withIntermediateDirectories: true)
                let run = try await RunAcross(
                    hosts: hosts, directory: attemptDirectory, topology: topology, command: "stress",
                    extra: ["--virtual", "--kill-every", "3", "--seed", "5"])
                defer { run.stop() }
                let launched = run.launched
                let status = try await within(150, "virtual stress across hosts") { await launched.value }
                let output = run.output
                #expect(status == 0, "\(output)\n\(run.hostLogs)")
                #expect(output.contains("verdict: every check passed"), "\(output)")
                faults.append(output.split(separator: "\n").first { $0.hasPrefix("faults injected:") }.map(String.init) ?? "")
                recordings.append(try Data(contentsOf: try #require(run.runDirectory).appendingPathComponent("events.pb")))
            }
            #expect(faults[0].contains("kills (") && faults[0] == faults[1], "\(faults)")
            #expect(recordings[0].count > 10_000 && recordings[0] == recordings[1], "\(recordings.map(\.count)) bytes")
        }
    }
}
