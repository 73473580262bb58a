import Foundation
import RideDispatch

/// A topology as YAML with every setting spelled out — defaults filled in, paths absolute —
/// that ``TopologyReader`` reads back to the same topology (`resolved.yaml` in a run directory:
/// `ribcity launch` takes it as it is).
public enum TopologyWriter {
    public static func yaml(_ topology: Topology) -> String {
        var lines = [
            "# \(topology.name) as resolved: every setting with its value (defaults filled in, paths absolute).",
            "name: \(quoted(topology.name))",
        ]
        switch topology.city {
        case .openStreetMap(let path):
            let calibration = topology.calibration.map { ", calibration: \(quoted($0.path))" } ?? ""
            lines.append("city: { osm: \(quoted(path))\(calibration) }")
        case .grid(let grid):
            lines.append(
                "city: { grid: { width_m: \(number(grid.width)), height_m: \(number(grid.height)), "
                    + "block_m: \(number(grid.blockLength)), speed_kmh: \(number(grid.speedKmh)) }"
                    + (topology.calibration.map { ", calibration: \(quoted($0.path))" } ?? "") + " }")
        }
        let start = Int(topology.startSecondOfDay)
        lines.append(
            "clock: { speed: \(number(topology.speed)), duration: \(number(topology.duration)), "
                + String(format: "start_time: \"%02d:%02d\", ", start / 3_600, start / 60 % 60)
                + "mode: \(topology.clockMode.rawValue), day: \(topology.day.rawValue) }")
        lines.append("network: { latency_ms: \(topology.latencyMs) }")
        lines.append("seed: \(topology.seed)")
        lines += dispatch(topology.dispatch)
        if topology.dispatchShards > 1 { lines.append("  shards: \(topology.dispatchShards)") }
        if topology.border != BorderPlan() {
            let border = topology.border
            lines.append(
                "  border: { margin_s: \(number(border.marginSeconds)), reach_zones: \(border.reachZones), "
                    + "patience_s: \(number(border.patienceSeconds)) }")
        }
        let drivers = topology.drivers
        lines.append(
            "drivers: { processes: \(drivers.processes), per_process: \(drivers.perProcess), "
                + "acceptance: \(range(drivers.acceptance)), response_s: \(range(drivers.responseSeconds)), "
                + "location_every_s: \(drivers.locationEverySeconds ?? 0)\(hostList(drivers.hosts)) }")
        let riders = topology.riders
        lines += ["riders:", "  processes: \(riders.processes)", "  demand:"]
        switch riders.demand {
        case .synthetic(let peak, let profile, let hotSpots, let even, let minimum):
            let profileText: String =
                switch profile {
                case .flat: "flat"
                case .fitted(let records): quoted(records)
                }
            lines += [
                "    synthetic:", "      peak_per_hour: \(number(peak))", "      profile: \(profileText)",
                "      arrivals: \(even ? "even" : "poisson")", "      min_trip_m: \(number(minimum))",
            ]
            if !hotSpots.isEmpty {
                lines.append("      hot_spots:")
                for spot in hotSpots {
                    lines.append(
                        "        - { lat: \(number(spot.centre.lat)), lon: \(number(spot.centre.lon)), "
                            + "radius_m: \(number(spot.radius)), weight: \(number(spot.weight)) }")
                }
            }
        case .replay(let records, let destinations):
            lines += ["    replay:", "      file: \(quoted(records))"]
            if let destinations { lines.append("      destinations: \(quoted(destinations))") }
        }
        lines += [
            "  patience_s: \(range(riders.patienceSeconds))", "  pool_share: \(number(riders.poolShare))",
            "  scheduled_share: \(number(riders.scheduledShare))",
        ]
        if !riders.hosts.isEmpty { lines.append("  host: [\(riders.hosts.map(quoted).joined(separator: ", "))]") }
        if !topology.features.isEmpty {
            lines.append(
                "features: { "
                    + topology.features.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + " }"
            )
        }
        if let port = topology.webPort { lines.append("monitor: { web: { port: \(port) } }") }
        if let curve = topology.curve { lines.append("security: { curve: \(curve) }") }
        if !topology.hosts.isEmpty {
            lines.append("hosts:")
            for host in topology.hosts { lines.append("  - { name: \(quoted(host.name)), address: \(quoted(host.address)) }") }
        }
        let endpoints = topology.endpoints
        lines.append(
            "endpoints: { transport: \(endpoints.transport.rawValue), host: \(quoted(endpoints.host)), "
                + "base_port: \(endpoints.basePort) }")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func hostList(_ names: [String]) -> String {
        names.isEmpty ? "" : ", host: [\(names.map(quoted).joined(separator: ", "))]"
    }

    private static func dispatch(_ configuration: DispatchConfiguration) -> [String] {
        let strategy: String
        let interval: Double
        switch configuration.strategy {
        case .greedyOnArrival: (strategy, interval) = ("on-arrival", 30)
        case .greedy(let every): (strategy, interval) = ("greedy", every)
        case .batched(let window): (strategy, interval) = ("batched", window)
        }
        let pricing = configuration.pricing
        var lines = [
            "dispatch:", "  strategy: \(strategy)", "  interval_s: \(number(interval))",
            "  max_pickup_s: \(number(configuration.maxPickupSeconds))",
            "  max_match_wait_s: \(number(configuration.maxMatchWaitSeconds))",
            "  offer_timeout_s: \(number(configuration.offerTimeoutSeconds))",
            "  pickup_dwell_s: \(number(configuration.pickupDwellSeconds))",
            "  dropoff_dwell_s: \(number(configuration.dropoffDwellSeconds))",
            "  candidates: \(configuration.candidatesPerRequest)",
            "  batch_candidates: \(configuration.batchCandidatesPerRequest)",
            "  scheduled_lead_s: \(number(configuration.scheduledLeadSeconds))",
            "  pricing: { base_cents: \(pricing.baseCents), per_km_cents: \(pricing.centsPerKm), "
                + "per_minute_cents: \(pricing.centsPerMinute), minimum_cents: \(pricing.minimumCents), "
                + "pool_factor: \(number(pricing.poolFactor)), commission_percent: \(pricing.commissionPercent) }",
            "  surge: { zone_m: \(number(configuration.zoneSize)), sensitivity: \(number(configuration.surgeSensitivity)), "
                + "max: \(number(configuration.maxSurge)), window_s: \(number(configuration.surgeWindowSeconds)) }",
            "  pool: { capacity: \(configuration.poolCapacity), detour_factor: \(number(configuration.poolDetourFactor)), "
                + "detour_s: \(number(configuration.poolDetourSeconds)) }",
        ]
        if case .towardUnmetDemand(let every, let moves) = configuration.rebalancing {
            lines.append("  rebalancing: { interval_s: \(number(every)), max_moves: \(moves) }")
        }
        return lines
    }

    /// A number as YAML reads it back exactly: whole numbers without a fraction.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    private static func range(_ range: ClosedRange<Double>) -> String {
        "[\(number(range.lowerBound)), \(number(range.upperBound))]"
    }

    /// A string in double quotes, escaped as YAML reads it.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
