import ArgumentParser
import Coordinator
import Foundation

/// `ribcity overload TOPOLOGY`: the city at rising demand, one whole run per step, until the
/// processes cannot keep up with the clock; says where (which demand, which process, how far
/// behind) and what the fleet made of the demand before that.
struct OverloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overload",
        abstract: "Raise a topology's demand run by run until the system saturates, and report where (docs/STRESS.md).",
        discussion: """
            Examples:
              ribcity overload Topologies/downtown.yaml --from 1 --step 1.5 --steps 6
            """
    )

    @OptionGroup var options: LaunchOptions

    @Option(help: "The first step's demand, times the topology's.")
    var from = 1.0

    @Option(help: "Each step multiplies the demand by this.")
    var step = 1.5

    @Option(help: "At most this many steps.")
    var steps = 6

    @Option(help: "Saturated: a process fell this many simulated seconds behind the clock.")
    var lagLimit = 10.0

    func validate() throws {
        guard from > 0, step > 1, steps > 0, lagLimit > 0 else {
            throw ValidationError("--from, --lag-limit and --steps must be positive, --step above 1")
        }
    }

    func run() async throws {
        _ = try scaledTopology(options.topology, from)
        var launch = options
        launch.noMonitor = true
        var rows: [OverloadStep] = []
        var saturated: OverloadStep?
        for index in 0..<steps {
            let factor = from * pow(step, Double(index))
            FileHandle.standardError.write(Data("overload: demand ×\(String(format: "%.2f", factor))\n".utf8))
            let summary = try await launch.run(record: false, riderArguments: ["--demand-scale", "\(factor)"])
            let row = OverloadStep(factor: factor, summary: summary)
            rows.append(row)
            if row.worstLag > lagLimit || !summary.outcome.isCompleted {
                saturated = row
                break
            }
        }
        print(OverloadStep.table(rows))
        if let saturated {
            print(
                String(
                    format: "saturated at demand ×%.2f (%d requests): %@", saturated.factor, saturated.requests,
                    saturated.cause(lagLimit: lagLimit)))
            if let last = rows.dropLast().last {
                print(
                    String(
                        format: "highest demand that kept up: ×%.2f (%d requests, %.0f%% completed)", last.factor, last.requests,
                        last.completedShare * 100))
            }
        } else {
            print(
                String(
                    format: "kept up at every step, up to demand ×%.2f: raise --steps or --step to find the limit",
                    rows.last?.factor ?? from))
        }
    }
}

/// One step of the overload search: the demand factor and what the run made of it.
struct OverloadStep {
    let factor: Double
    let summary: RunSummary

    var requests: Int { summary.requests }
    var completedShare: Double { Double(summary.kpis.totals["completed"] ?? 0) / Double(max(1, summary.requests)) }
    var worstLag: Double { summary.worstLagSeconds }
    /// The process that fell furthest behind.
    var laggard: (name: String, lag: Double, cpu: Double)? {
        summary.kpis.processes.max { $0.value.maxLagSeconds < $1.value.maxLagSeconds }.map {
            ($0.key, $0.value.maxLagSeconds, $0.value.cpuSeconds)
        }
    }

    func cause(lagLimit: Double) -> String {
        if !summary.outcome.isCompleted { return "the run did not complete (\(summary.outcome))" }
        guard let laggard else { return "no process reported" }
        return String(
            format: "%@ fell %.1f s simulated behind the clock (limit %.0f s), %.1f s CPU in %.0f s wall",
            laggard.name, laggard.lag, lagLimit, laggard.cpu, summary.wallSeconds)
    }

    static func table(_ rows: [OverloadStep]) -> String {
        var lines = ["demand   requests  completed  cancelled  rejected  pickup p50/p95  worst lag (process)        wall"]
        for row in rows {
            let totals = row.summary.kpis.totals
            lines.append(
                String(
                    format: "×%-7.2f %-9d %-10d %-10d %-9d %4.0f/%-9.0f %6.1f s (%@)%@ %6.1f s",
                    row.factor, row.requests, totals["completed"] ?? 0, totals["cancelled"] ?? 0, totals["rejected"] ?? 0,
                    row.summary.kpis.pickupWaitP50, row.summary.kpis.pickupWaitP95, row.worstLag, row.laggard?.name ?? "-",
                    String(repeating: " ", count: max(0, 12 - (row.laggard?.name.count ?? 1))), row.summary.wallSeconds))
        }
        return lines.joined(separator: "\n")
    }
}
