import Foundation
import TestSupport
import Testing

// In the launch suite, which runs its cities one at a time.
extension LaunchTests {
    @Test(
        "Share ETA and Split Fare through a whole city under stress, with failing plugins switched off: shares and splits happen, every split sums, and the core flow's results equal a run with the plugins off"
    )
    func featuresUnderStress() async throws {
        let stress = [
            "--virtual", "--no-monitor", "--kill-every", "3", "--kill-dispatch", "200", "--malformed-rate", "20", "--seed", "5",
        ]
        let withFeatures = try await LaunchedRun.launch(
            "stress", extra: stress,
            features: "{ rider.share_eta: { share: 1, fail_rate: 0.2 }, rider.split_fare: { share: 1, fail_rate: 0.2 } }",
            nice: true)
        defer { try? FileManager.default.removeItem(at: withFeatures.directory) }
        let without = try await LaunchedRun.launch("stress", extra: stress, features: "{ rider.promotions: false }", nice: true)
        defer { try? FileManager.default.removeItem(at: without.directory) }
        for run in [withFeatures, without] {
            #expect(run.status == 0, "\(run.output)")
            let rows = (run.summary["verdict"] as? [String: Any])?["rows"] as? [[String: Any]] ?? []
            #expect(!rows.isEmpty && rows.allSatisfy { $0["passed"] as? Bool == true }, "\(rows)")
        }
        let features = (withFeatures.summary["kpis"] as? [String: Any])?["features"] as? [String: Any] ?? [:]
        #expect((features["ridersSharedWith"] as? Int ?? 0) > 0, "ETAs reached other riders: \(features)")
        #expect((features["fareSplits"] as? Int ?? 0) > 0, "fares were split: \(features)")
        let switchedOff = features["switchedOff"] as? [String: Int] ?? [:]
        #expect((switchedOff["rider.share_eta"] ?? 0) > 0 && (switchedOff["rider.split_fare"] ?? 0) > 0, "\(features)")
        let rows = (withFeatures.summary["verdict"] as? [String: Any])?["rows"] as? [[String: Any]] ?? []
        #expect(rows.contains { $0["check"] as? String == "split fares sum to the fare, each payer once" }, "\(rows)")
        #expect((without.summary["kpis"] as? [String: Any])?["features"] == nil)
        // The plugins add messages but change nothing of the rides: same requests, matches,
        // completions, cancellations, rejections and pickup waits.
        let core = ["requests", "matched", "completed", "cancelled", "rejected"]
        #expect(
            core.map { withFeatures.totals[$0] } == core.map { without.totals[$0] }, "\(withFeatures.totals) \(without.totals)")
        let waits = ["pickupWaitP50", "pickupWaitP95"]
        let kpis = [withFeatures, without].map { $0.summary["kpis"] as? [String: Any] ?? [:] }
        #expect(waits.map { "\(kpis[0][$0] ?? "-")" } == waits.map { "\(kpis[1][$0] ?? "-")" })
    }
}
