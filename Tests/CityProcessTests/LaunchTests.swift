import Foundation
import TestSupport
import Testing

/// A whole city run by `ribcity launch` in a temporary directory: every process real.
struct LaunchedRun {
    let directory: URL
    let output: String
    let status: Int32

    /// The run directory `ribcity launch` made.
    var runDirectory: URL? {
        let runs = directory.appendingPathComponent("runs")
        return (try? FileManager.default.contentsOfDirectory(atPath: runs.path))?.first.map { runs.appendingPathComponent($0) }
    }

    func log(_ process: String) -> String {
        runDirectory.flatMap { try? String(contentsOf: $0.appendingPathComponent("\(process).log"), encoding: .utf8) } ?? ""
    }

    var summary: [String: Any] {
        guard let data = runDirectory.flatMap({ try? Data(contentsOf: $0.appendingPathComponent("summary.json")) }) else {
            return [:]
        }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    var totals: [String: Int] { (summary["kpis"] as? [String: Any])?["totals"] as? [String: Int] ?? [:] }

    /// A CSV table of the run directory, one dictionary per row (fields without quotes or commas).
    func table(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOf: runDirectory!.appendingPathComponent(name), encoding: .utf8)
        let lines = text.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// Dispatch's own count of what it published, from its last log lines.
    var dispatchTotals: [String: Int] { totals(of: "dispatch") }

    /// A dispatch process's own count of what it published ("dispatch", or a shard's "dispatch-K").
    func totals(of process: String) -> [String: Int] {
        guard let line = log(process).split(separator: "\n").last(where: { $0.hasPrefix("\(process) totals:") }) else {
            return [:]
        }
        var totals: [String: Int] = [:]
        for part in line.dropFirst("\(process) totals:".count).split(separator: ",") {
            let words = part.split(separator: " ")
            if words.count == 2, let count = Int(words[0]) { totals[String(words[1])] = count }
        }
        return totals
    }

    /// Launches a small grid city (2 driver and 2 rider processes) at high speed. `nice`: the
    /// city's processes run at a lower priority (a virtual-time city takes every core it can get,
    /// and the other suites run beside it with timeouts of their own).
    static func launch(
        _ command: String = "launch", extra: [String] = [], topologyExtra: String = "", dispatchExtra: String = "",
        features: String = "{ rider.promotions: true }", nice: Bool = false,
        interruptAfter seconds: Double? = nil, environment: [String: String] = [:]
    ) async throws -> LaunchedRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcity-launch-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = "e2e-\(UUID().uuidString.prefix(6).lowercased())"
        let topology = directory.appendingPathComponent("city.yaml")
        try """
        name: \(name)
        city: { grid: { width_m: 2000, height_m: 2000, block_m: 250, speed_kmh: 36 } }
        clock: { speed: 60, duration: 10m }
        seed: 7
        dispatch: { strategy: batched, interval_s: 10, offer_timeout_s: 30\(dispatchExtra) }
        drivers: { processes: 2, per_process: 8, acceptance: [0.7, 1.0], response_s: [1, 5] }
        riders:
          processes: 2
          demand: { synthetic: { peak_per_hour: 240, min_trip_m: 400 } }
          patience_s: [300, 600]
          pool_share: 0.2
          scheduled_share: 0
        features: \(features)
        \(topologyExtra)
        """.write(to: topology, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nice ? "/usr/bin/nice" : ribcityBinary!)
        process.arguments =
            (nice ? ["-n", "15", ribcityBinary!] : []) + [
                command, topology.path, "--runs", directory.appendingPathComponent("runs").path, "--json",
                "--wall-limit", "150",
            ] + extra
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let pipe = ChildProcess.pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try ChildProcess.run(process)
        if let seconds {
            Task {
                try await Task.sleep(for: .seconds(seconds))
                process.interrupt()
            }
        }
        // Reading to the end blocks until the city is over: a thread of its own, never one of the
        // two that run every suite's tasks (blocked, they would starve the other suites).
        let output = try await within(200, "ribcity launch") {
            await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
                let reader = Thread {
                    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    done.resume(returning: text)
                }
                reader.start()
            }
        }
        return LaunchedRun(directory: directory, output: output, status: process.terminationStatus)
    }
}

@Suite("A city end to end: ribcity launch with every process real", .serialized)
struct LaunchTests {
    @Test("Trips complete, every request ends once, no driver is double-booked, the bus's counts match dispatch's")
    func cityRunsToTheEnd() async throws {
        let run = try await LaunchedRun.launch()
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.summary["outcome"] as? String == "completed", "\(run.output)")
        let totals = run.totals
        let requests = totals["requests"] ?? 0
        #expect(requests > 20, "\(totals)")
        #expect((totals["completed"] ?? 0) > requests / 2, "\(totals)")
        #expect((totals["completed"] ?? 0) + (totals["cancelled"] ?? 0) + (totals["rejected"] ?? 0) == requests, "\(totals)")
        #expect(run.log("dispatch").contains("dispatch invariants: held"), "\(run.log("dispatch"))")
        let dispatch = run.dispatchTotals
        #expect(
            dispatch["requests"] == requests && dispatch["completed"] == totals["completed"]
                && dispatch["cancelled"] == totals["cancelled"] && dispatch["rejected"] == totals["rejected"],
            "bus \(totals), dispatch \(dispatch)")
        for riders in ["riders-0", "riders-1"] {
            #expect(run.log(riders).contains(" 0 leaks"), "\(run.log(riders))")
        }
        #expect(run.output.contains("every request accounted for"))
        // The launching process's own usage is counted too (a metro hour's coordinator used 8 CPU s,
        // a seventh of the machine, and no summary said so).
        let coordinator = run.summary["coordinator"] as? [String: Double] ?? [:]
        #expect((coordinator["cpuSeconds"] ?? 0) > 0 && (coordinator["peakResidentMB"] ?? 0) > 1, "\(run.summary)")

        // The tables for analysts agree with the summary: a row per request, each outcome as
        // counted, a row per driver whose trips add up to the completions.
        let trips = try run.table("trips.csv")
        #expect(trips.count == requests)
        for outcome in ["completed", "cancelled", "rejected"] {
            #expect(trips.filter { $0["outcome"] == outcome }.count == totals[outcome] ?? 0, "\(outcome)")
        }
        let completed = trips.filter { $0["outcome"] == "completed" }
        // Times are clock times of day (the topology starts at 08:00 when it names no start).
        #expect(completed.allSatisfy { $0["requested_at"]?.hasPrefix("08:") == true && !($0["dropoff_zone"] ?? "").isEmpty })
        #expect(completed.allSatisfy { Int($0["fare_cents"] ?? "") ?? 0 > 0 && !($0["driver_id"] ?? "").isEmpty })
        let drivers = try run.table("drivers.csv")
        #expect(drivers.count == 16)
        #expect(drivers.reduce(0) { $0 + (Int($1["trips"] ?? "") ?? 0) } == totals["completed"])
        let earned = completed.reduce(0) { $0 + (Int($1["driver_earns_cents"] ?? "") ?? 0) }
        #expect(drivers.reduce(0) { $0 + (Int($1["earnings_cents"] ?? "") ?? 0) } == earned)

        // The report page agrees with the summary; headless Chromium renders it (the screenshot is
        // left in the test's output directory, and its path printed).
        let page = try await CommandRun.ribcity(["report", run.runDirectory!.path, "--html"])
        #expect(page.status == 0 && page.output.contains("report: "), "\(page.output)")
        let html = try String(contentsOf: run.runDirectory!.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("<tr><th>requests</th><td>\(requests)</td></tr>"))
        #expect(html.contains("<tr><th>completed</th><td>\(totals["completed"] ?? 0)</td></tr>"))
        if let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile) {
            let shot = FileManager.default.temporaryDirectory.appendingPathComponent(
                "ribcity-report-\(UUID().uuidString.prefix(6)).png")
            let rendered = try await CommandRun.run(
                chromium,
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--screenshot=\(shot.path)", "--window-size=900,1800",
                    "file://" + run.runDirectory!.appendingPathComponent("report.html").path,
                ])
            let size = (try? FileManager.default.attributesOfItem(atPath: shot.path)[.size] as? Int) ?? 0
            #expect(rendered.status == 0 && size > 20_000, "\(rendered.output)")
            print("report screenshot: \(shot.path) (\(size) bytes)")
        }

        // The rides were drawn once, by the launch, and handed to the hosts in a file (about 30
        // bytes a ride: a time, two nodes, a product, a pickup time and a patience).
        let placed = run.runDirectory!.appendingPathComponent("placed-demand.pb").path
        let placedBytes = (try? FileManager.default.attributesOfItem(atPath: placed)[.size] as? Int) ?? 0
        #expect(placedBytes > requests * 20, "\(placedBytes) bytes for \(requests) requests")

        // The run's resolved topology is one a launch takes as it is.
        let resolved = try await CommandRun.ribcity(["topology", run.runDirectory!.appendingPathComponent("resolved.yaml").path])
        #expect(resolved.status == 0 && resolved.output.contains("resolved.yaml: valid"), "\(resolved.output)")
    }

    @Test(
        "Ctrl-C mid-run: the summary says the run was interrupted, counts what was open as ended by the shutdown (not cancelled), and the launch exits 130"
    )
    func interrupted() async throws {
        let run = try await LaunchedRun.launch(extra: ["--no-monitor"], interruptAfter: 6)
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.status == 130, "\(run.output)")
        #expect(run.summary["outcome"] as? String == "interrupted", "\(run.output)")
        let shutdown = try #require(run.summary["endedByShutdown"] as? Int, "\(run.output)")
        #expect(
            run.output.contains("\(shutdown) still open when the run was interrupted (ended by the shutdown)"), "\(run.output)")
        let totals = run.totals
        let ended = (totals["completed"] ?? 0) + (totals["cancelled"] ?? 0) + (totals["rejected"] ?? 0)
        #expect(ended + shutdown == totals["requests"], "\(totals), \(shutdown) ended by the shutdown")
        #expect(!run.output.contains("every request accounted for"), "\(run.output)")
    }

    @Test("A driver process killed mid-run is restarted, and the run still accounts for every request")
    func killedProcessIsRestarted() async throws {
        let run = try await LaunchedRun.launch(extra: ["--kill", "drivers-0@2"])
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("killing drivers-0"), "\(run.output)")
        #expect(run.output.contains("drivers-0 restarted"), "\(run.output)")
        #expect(run.summary["outcome"] as? String == "completed", "\(run.output)")
        let processes = run.summary["processes"] as? [String: [String: Any]] ?? [:]
        #expect(processes["drivers-0"]?["starts"] as? Int == 2, "\(processes)")
        let totals = run.totals
        #expect(
            (totals["completed"] ?? 0) + (totals["cancelled"] ?? 0) + (totals["rejected"] ?? 0) == totals["requests"], "\(totals)"
        )
        #expect(run.log("dispatch").contains("dispatch invariants: held"), "\(run.log("dispatch"))")
    }

    @Test(
        "Stress over CURVE: processes killed at random, garbage and forged commands sent to dispatch, the monitor stalled, the bus flooded, messages dropped, duplicated and delayed both ways; the recorded run's verdict passes, and report says it again"
    )
    func stressVerdict() async throws {
        let run = try await LaunchedRun.launch(
            "stress",
            extra: [
                "--kill-every", "3", "--malformed-rate", "20", "--stall-monitor-every", "3",
                "--flood-rate", "5000", "--forge-rate", "20", "--message-faults", "drop=0.03,duplicate=0.05,delay=0.05:200ms",
                "--dispatch-faults", "drop=0.03,duplicate=0.05,delay=0.05:200ms",
                "--seed", "5",
            ],
            // Every process talks over CURVE (ipc here; tcp has it on by default), garbage and
            // forgeries from clients whose keys the run admits.
            topologyExtra: "security: { curve: true }")
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("verdict: every check passed"), "\(run.output)")
        #expect(run.output.contains("CURVE on: keys for"), "\(run.output)")
        let keys = run.runDirectory!.appendingPathComponent("keys/dispatch.secret").path
        let permissions = try FileManager.default.attributesOfItem(atPath: keys)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "a secret key is its owner's only")
        // The run's ipc sockets are named after the run (two runs of one topology never share
        // them) and gone when it ends, killed processes or not.
        let sessions = run.output.components(separatedBy: "--sessions ipc://").dropFirst().first?.prefix { $0 != " " }
        let socketPath = try #require(sessions.map(String.init), "\(run.output)")
        #expect(socketPath.contains(run.runDirectory!.lastPathComponent), "\(socketPath)")
        #expect(!FileManager.default.fileExists(atPath: socketPath), "\(socketPath)")
        let verdict = run.summary["verdict"] as? [String: Any]
        let rows = verdict?["rows"] as? [[String: Any]] ?? []
        #expect(rows.count >= 9 && rows.allSatisfy { $0["passed"] as? Bool == true }, "\(rows)")
        let chaos = run.summary["chaos"] as? [String: Any]
        #expect((chaos?["kills"] as? [String])?.isEmpty == false, "\(run.output)")
        #expect(
            (chaos?["malformedSent"] as? Int ?? 0) > 0 && (chaos?["floodSent"] as? Int ?? 0) > 0
                && (chaos?["monitorStalls"] as? Int ?? 0) > 0)
        // A session of its own forging commands for others: every one refused, none applied.
        #expect((chaos?["forgedRefused"] as? Int ?? 0) > 0 && chaos?["forgedApplied"] as? Int == 0, "\(run.output)")
        #expect(rows.contains { $0["check"] as? String == "forged commands refused, none applied" }, "\(rows)")
        // And publishing on the bus what only dispatch, another process or the coordinator may:
        // the bus refused it, and nothing the city's own processes published.
        #expect((chaos?["forgedPublished"] as? Int ?? 0) > 0, "\(run.output)")
        #expect(rows.contains { $0["check"] as? String == "forged bus publications refused, none forwarded" }, "\(rows)")
        let refusals = run.summary["busRefusalExamples"] as? [String] ?? []
        #expect(run.summary["busRefused"] as? Int ?? 0 > 0 && refusals.allSatisfy { $0.hasPrefix("forger: ") }, "\(refusals)")
        // Both read on a thread of their own (`CommandRun`): read here, they blocked one of the two
        // threads that run every suite's tasks for as long as each report took.
        let report = try await CommandRun.ribcity(["report", run.runDirectory!.path])
        #expect(report.status == 0 && report.output.contains("verdict: every check passed"), "\(report.output)")

        // The recorder role wrote the run into SQLite: its report answers from SQL alone.
        let database = run.runDirectory!.appendingPathComponent("run.sqlite").path
        #expect(FileManager.default.fileExists(atPath: database), "\(run.output)")
        let recorder = try await CommandRun.run(
            URL(fileURLWithPath: ribcityBinary!).deletingLastPathComponent().appendingPathComponent("ribcity-recorder").path,
            ["report", database])
        let tables = recorder.output
        #expect(recorder.status == 0, "\(tables)")
        #expect(tables.contains("completed") && tables.contains("Requests that ended more than once"), "\(tables)")
        let twice = tables.components(separatedBy: "Requests that ended more than once").last ?? ""
        #expect(twice.contains("(none)"), "\(tables)")
        #expect(run.log("recorder").contains("envelopes recorded"), "\(run.log("recorder"))")

        // Importing the recording again into a database of its own: once inserts, twice inserts
        // nothing and says so; a recording cut short is recorded up to the cut and exits 65.
        let events = run.runDirectory!.appendingPathComponent("events.pb")
        let imported = run.directory.appendingPathComponent("imported.sqlite").path
        let importer = URL(fileURLWithPath: ribcityBinary!).deletingLastPathComponent().appendingPathComponent("ribcity-recorder")
        let once = try await CommandRun.run(importer.path, ["import", events.path, "--database", imported])
        #expect(once.status == 0 && once.output.contains(" envelopes recorded into \(imported)"), "\(once.output)")
        let again = try await CommandRun.run(importer.path, ["import", events.path, "--database", imported])
        #expect(again.status == 0 && again.output.hasPrefix("\(imported) has this recording already: nothing inserted ("))
        let bytes = try Data(contentsOf: events)
        let cut = run.directory.appendingPathComponent("cut.pb")
        try bytes.dropLast(3).write(to: cut)
        let short = try await CommandRun.run(importer.path, ["import", cut.path, "--database", imported + ".cut"])
        #expect(short.status == 65, "\(short.output)")
        #expect(
            short.output.contains("Error: \(cut.path) is cut short: ")
                && short.output.contains(" records read before the cut (recorded above); the last record is incomplete"),
            "\(short.output)")
        #expect(run.log("dispatch").contains("dispatch message faults:"), "\(run.log("dispatch"))")
    }

    @Test(
        "Dispatch killed mid-run restores the run from its journal: sessions re-sync, nothing lost, nothing done twice, the verdict passes"
    )
    func killedDispatchRecovers() async throws {
        let run = try await LaunchedRun.launch("stress", extra: ["--kill-dispatch", "2", "--no-monitor"])
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("verdict: every check passed"), "\(run.output)")
        #expect(run.log("dispatch").contains("dispatch restored from"), "\(run.log("dispatch"))")
        let chaos = run.summary["chaos"] as? [String: Any]
        #expect((chaos?["dispatchRecoverySeconds"] as? [Double])?.count == 1, "\(run.output)")
        let totals = run.totals
        let dispatch = run.dispatchTotals
        #expect(
            (totals["completed"] ?? 0) + (totals["cancelled"] ?? 0) + (totals["rejected"] ?? 0) == totals["requests"], "\(totals)"
        )
        #expect(
            dispatch["requests"] == totals["requests"] && dispatch["completed"] == totals["completed"],
            "bus \(totals), dispatch \(dispatch)")
        #expect((totals["completed"] ?? 0) > (totals["requests"] ?? 0) / 2, "the run goes on after the recovery: \(totals)")
    }

    @Test(
        "Sharded dispatch: two shards split the city, drivers are handed over where their trips end, one shard killed mid-run recovers from its own journal while the other serves, and the verdict passes"
    )
    func shardedDispatch() async throws {
        let run = try await LaunchedRun.launch(
            "stress", extra: ["--kill-dispatch", "2", "--no-monitor", "--malformed-rate", "40", "--forge-rate", "20"],
            dispatchExtra: ", shards: 2")
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("verdict: every check passed"), "\(run.output)")
        #expect(run.output.contains("held in all 2 shards"), "\(run.output)")
        #expect(run.log("dispatch-0").contains("dispatch-0 restored from"), "\(run.log("dispatch-0"))")
        #expect(!run.log("dispatch-1").contains("restored from"), "the other shard served on")
        #expect(
            run.log("dispatch-0").contains("dispatch-0: the regions' weights read from"),
            "a restarted shard reads its map's weights from beside its journal instead of drawing the demand again")
        let totals = run.totals
        let shards = [run.totals(of: "dispatch-0"), run.totals(of: "dispatch-1")]
        #expect(shards.allSatisfy { ($0["requests"] ?? 0) > 0 }, "each shard owns part of the city: \(shards)")
        // A request handed across a border is created again at the shard that takes it: counted once.
        let handedIn = shards.reduce(0) { $0 + ($1["handed-in"] ?? 0) }
        #expect(
            shards.reduce(0) { $0 + ($1["requests"] ?? 0) } - handedIn == totals["requests"]
                && shards.reduce(0) { $0 + ($1["completed"] ?? 0) } == totals["completed"],
            "bus \(totals), shards \(shards)")
        // How many cross depends on the wall clock's timing here; the virtual-time test requires some.
        #expect(
            handedIn == shards.reduce(0) { $0 + ($1["handed-out"] ?? 0) },
            "requests matched across the border, each handed out once and taken once: \(shards)")
        #expect(
            (totals["completed"] ?? 0) + (totals["cancelled"] ?? 0) + (totals["rejected"] ?? 0) == totals["requests"], "\(totals)"
        )
        let handedOver = shards.reduce(0) { $0 + ($1["handovers"] ?? 0) }
        #expect(handedOver > 0, "trips cross the border, and their drivers are handed over: \(shards)")
        // A handed-over driver's legs at its new shard must come after its old ones' (its app
        // ignores a leg numbered below one it has seen): else its riders wait in vain and cancel.
        // On the wall clock a shard's restart takes minutes of the city's time on a loaded or
        // sanitized machine (14 of 55 cancelled under ThreadSanitizer in CI, 0 on a quiet one), so
        // the bound here is loose; the virtual-time test of handovers holds the tight one.
        #expect((totals["cancelled"] ?? 0) * 2 < (totals["requests"] ?? 0), "riders left waiting: \(totals)")
        // Garbage and forgeries reach every shard, not the first alone (each shard's last life
        // says what it met; a restored shard's journal kept the garbage its first life met).
        let processes = (run.summary["kpis"] as? [String: Any])?["processes"] as? [String: [String: Any]] ?? [:]
        for shard in ["dispatch-0", "dispatch-1"] {
            let health = processes[shard] ?? [:]
            #expect(
                (health["malformed"] as? Int ?? 0) > 0 && (health["forbidden"] as? Int ?? 0) > 0,
                "\(shard): \(health)")
        }
    }
}
