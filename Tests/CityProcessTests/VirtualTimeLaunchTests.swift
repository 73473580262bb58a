import Foundation
import TestSupport
import Testing

// In the launch suite, which runs its cities one at a time: two cities at once on two cores would
// leave too little for the other suites' timeouts.
extension LaunchTests {
    /// The summary without what belongs to the machine rather than the run: wall time, CPU,
    /// memory, pids, the rate and the waits.
    static func simulated(_ summary: [String: Any]) -> [String: String] {
        var kept: [String: String] = [:]
        let kpis = summary["kpis"] as? [String: Any] ?? [:]
        for key in ["pickupWaitP50", "pickupWaitP95", "maxSurge", "openRequests", "simTimeSeconds"] {
            kept["kpis." + key] = "\(kpis[key] ?? "-")"
        }
        for (key, count) in kpis["totals"] as? [String: Int] ?? [:] { kept["kpis.totals." + key] = "\(count)" }
        let virtual = summary["virtualTime"] as? [String: Any] ?? [:]
        for key in ["windows", "simulatedSeconds", "skippedSeconds"] { kept["virtualTime." + key] = "\(virtual[key] ?? "-")" }
        kept["outcome"] = "\(summary["outcome"] ?? "-")"
        return kept
    }

    /// Two runs of one stress seed in virtual time: each completed with every verdict row passed,
    /// and they recorded the same events byte for byte and the same results.
    static func expectReplayedExactly(_ runs: [LaunchedRun]) {
        for run in runs {
            #expect(run.status == 0, "\(run.output)")
            #expect(run.summary["outcome"] as? String == "completed", "\(run.output)")
            let rows = (run.summary["verdict"] as? [String: Any])?["rows"] as? [[String: Any]] ?? []
            #expect(!rows.isEmpty && rows.allSatisfy { $0["passed"] as? Bool == true }, "\(rows)")
        }
        let recordings = runs.compactMap {
            $0.runDirectory.flatMap { try? Data(contentsOf: $0.appendingPathComponent("events.pb")) }
        }
        #expect(recordings.count == 2 && recordings[0].count > 10_000, "both runs recorded")
        #expect(recordings.count == 2 && recordings[0] == recordings[1], "the recordings are byte for byte the same")
        #expect(runs.count == 2 && Self.simulated(runs[0].summary) == Self.simulated(runs[1].summary))
    }

    @Test(
        "A virtual stress seed replays exactly: random kills, dispatch killed, garbage and message faults both ways — byte-identical recordings, the same faults, results and passing verdict"
    )
    func stressReplaysExactly() async throws {
        var runs: [LaunchedRun] = []
        defer { for run in runs { try? FileManager.default.removeItem(at: run.directory) } }
        for _ in 0..<2 {
            runs.append(
                try await LaunchedRun.launch(
                    "stress",
                    extra: [
                        "--virtual", "--no-monitor", "--kill-every", "3", "--kill-dispatch", "200", "--malformed-rate", "20",
                        "--message-faults", "drop=0.03,duplicate=0.05,delay=0.05:200ms",
                        "--dispatch-faults", "drop=0.03,duplicate=0.05,delay=0.05:200ms", "--seed", "5",
                    ], nice: true))
        }
        let kills = runs.map { ($0.summary["chaos"] as? [String: Any])?["kills"] as? [String] ?? [] }
        #expect(kills[0].count >= 2 && kills[0].contains("dispatch") && kills[0] == kills[1], "\(kills)")
        Self.expectReplayedExactly(runs)
        for run in runs {
            #expect(run.output.contains("virtual time:"), "\(run.output)")
            #expect(run.log("dispatch").contains("dispatch restored from"), "\(run.log("dispatch"))")
        }
        let totals = runs[0].totals
        #expect((totals["completed"] ?? 0) > (totals["requests"] ?? 0) / 3, "the city did its work between faults: \(totals)")
    }

    @Test(
        "Sharded dispatch in virtual time: a stress seed with shards killed replays byte for byte, every shard recovers from its own journal, the verdict passes"
    )
    func shardedStressReplaysExactly() async throws {
        var runs: [LaunchedRun] = []
        defer { for run in runs { try? FileManager.default.removeItem(at: run.directory) } }
        for _ in 0..<2 {
            runs.append(
                try await LaunchedRun.launch(
                    "stress",
                    extra: [
                        "--virtual", "--no-monitor", "--kill-every", "4", "--kill-dispatch", "150",
                        "--message-faults", "drop=0.03,duplicate=0.05,delay=0.05:200ms", "--seed", "11",
                    ], dispatchExtra: ", shards: 2", nice: true))
        }
        let kills = runs.map { ($0.summary["chaos"] as? [String: Any])?["kills"] as? [String] ?? [] }
        #expect(kills[0].contains("dispatch-0") && kills[0] == kills[1], "\(kills)")
        Self.expectReplayedExactly(runs)
        for run in runs {
            #expect(run.log("dispatch-0").contains("dispatch-0 restored from"), "\(run.log("dispatch-0"))")
            #expect((run.totals(of: "dispatch-1")["requests"] ?? 0) > 0, "\(run.log("dispatch-1"))")
        }
        // Requests matched across the border are part of what replays exactly.
        let handedOver = runs.map { run in
            ["dispatch-0", "dispatch-1"].reduce(0) { $0 + (run.totals(of: $1)["handed-out"] ?? 0) }
        }
        #expect(handedOver[0] > 0 && handedOver[0] == handedOver[1], "\(handedOver)")
    }

    @Test(
        "Sharded dispatch in virtual time: a driver handed to the other shard is given legs numbered on from its old shard's, so its riders are picked up, not left to cancel"
    )
    func handedOverDriversServeTheirRiders() async throws {
        let run = try await LaunchedRun.launch(
            "stress", extra: ["--virtual", "--no-monitor", "--kill-dispatch", "2", "--malformed-rate", "40"],
            dispatchExtra: ", shards: 2", nice: true)
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("verdict: every check passed"), "\(run.output)")
        let totals = run.totals
        let handovers = ["dispatch-0", "dispatch-1"].reduce(0) { $0 + (run.totals(of: $1)["handovers"] ?? 0) }
        #expect(handovers > 0, "trips cross the border, and their drivers are handed over: \(totals)")
        // In virtual time the city's timing is its own, not the machine's: a loaded or sanitized
        // run cancels no more than a quiet one. Fixed, 3 of this city's 55 requests are cancelled;
        // with a handed-over driver's legs numbered from 1 again (its app ignores a leg numbered
        // below one it has seen), 17 were.
        #expect((totals["cancelled"] ?? 0) * 5 < (totals["requests"] ?? 0), "riders left waiting: \(totals)")
    }
}
