import Foundation

extension KPIReport {
    /// The report as aligned text lines, for terminals and run summaries.
    public var summaryLines: [String] {
        func seconds(_ distribution: Distribution) -> String {
            String(
                format: "p50 %5.0f s  p95 %5.0f s  mean %5.0f s  (n=%d)", distribution.percentile(0.5),
                distribution.percentile(0.95), distribution.mean, distribution.count)
        }
        func share(_ part: Int) -> String {
            String(format: "%5.1f %%", requests > 0 ? 100 * Double(part) / Double(requests) : 0)
        }
        let surge = surgeQuoted.sorted { $0.key < $1.key }.map { String(format: "%.1f×: %d", $0.key, $0.value) }
        return [
            "requests            \(requests)",
            "matched             \(matched)  \(share(matched))",
            "completed           \(completed)  \(share(completed))  (within the duration: \(completedWithinDuration), "
                + "\(share(completedWithinDuration)))",
            "cancelled           \(cancelled)  \(share(cancelled))  (by riders \(cancelledByRider), "
                + "by drivers \(cancelledByDriver))",
            "rejected            \(rejected)  \(share(rejected))",
            "time to match       " + seconds(timeToMatch),
            "pickup wait         " + seconds(pickupWait),
            "in vehicle          " + seconds(inVehicle),
            String(
                format: "driver time         idle %.1f %%  offered %.1f %%  to pickup %.1f %%  on trip %.1f %%",
                100 * utilisation(.idle), 100 * utilisation(.offered), 100 * utilisation(.enRoute), 100 * utilisation(.onTrip)),
            String(
                format: "distance            %.0f km loaded, %.0f km empty: deadhead %.1f %%",
                loadedMetres / 1000, emptyMetres / 1000, 100 * deadheadShare),
            "surge quoted        " + surge.joined(separator: ", "),
            String(
                format: "fares               riders paid %.2f = drivers %.2f + platform %.2f",
                Double(ridersPaidCents) / 100, Double(driversEarnedCents) / 100, Double(platformCents) / 100),
        ]
    }
}
