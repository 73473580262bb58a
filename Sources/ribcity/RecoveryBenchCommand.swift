import ArgumentParser
import City
import DispatchService
import Foundation
import RideDispatch
import Topology
import Wire

/// `ribcity bench recovery`: a dispatch restart on a real journal, from its newest snapshot,
/// against replaying the whole journal.
struct RecoveryBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery",
        abstract:
            "Dispatch's restart on a run's journal: its newest snapshot and the entries after it, against the whole journal replayed.",
        discussion: """
            Examples:
              ribcity stress Topologies/metro.yaml --kill-dispatch 100
              ribcity bench recovery --topology Topologies/metro.yaml --journal runs/metro-…/dispatch.journal
            """
    )

    @OptionGroup var topologyFile: TopologyArgument

    @Option(help: "The run's dispatch journal (its snapshots beside it).")
    var journal: String

    @Option(help: "Sharded dispatch: the journal's shard (by default read from its name, dispatch-K.journal).")
    var shard: Int?

    /// The shard a sharded run's journal belongs to.
    private func journalShard(of plan: Topology) throws -> Int {
        guard plan.dispatchShards > 1 else { return 0 }
        let named = WireIDs.shard(ofDispatchProcess: ((journal as NSString).lastPathComponent as NSString).deletingPathExtension)
        guard let index = shard ?? named, (0..<plan.dispatchShards).contains(index) else {
            throw ValidationError(
                "\(journal): the topology has \(plan.dispatchShards) dispatch shards: give the journal's with --shard K (0 to \(plan.dispatchShards - 1))"
            )
        }
        return index
    }

    func run() throws {
        let plan = try readTopology(topologyFile.path)
        let graph = try loadCity(of: plan)
        let travel = plan.travelTimes(on: graph)
        // The desk the run's dispatch had: its owners, and its shard with the regions kept beside the journal.
        let map = try dispatchShardMap(of: plan, at: topologyFile.path, graph: graph, journal: journal, keepingWeights: false)?
            .map
        let shard = try journalShard(of: plan)
        let settings = DispatchCommand.deskSettings(of: plan, shard: shard, map: map)
        let process = WireIDs.dispatchProcess(shard: shard, of: plan.dispatchShards)
        let report = try RecoveryBenchmark.measure(journal: journal, process: process) {
            DispatchDesk(engine: DispatchEngine(travel: travel, configuration: plan.dispatch), settings: settings)
        }
        print(
            String(
                format: "journal: %d entries, %.1f MB, read and framed in %.3f s", report.entries,
                Double(report.journalBytes) / 1e6, report.readSeconds))
        print(String(format: "baseline, the whole journal replayed:     %8.3f s", report.fullReplaySeconds))
        guard let snapshot = report.snapshot else {
            print("no usable snapshot beside the journal")
            return
        }
        let total = report.restoreSeconds + report.tailReplaySeconds
        print(
            String(
                format: "snapshot %@ (%.1f MB) restored:  %8.3f s\n%d entries after it replayed:            %8.3f s\n"
                    + "restart from the snapshot, in all:        %8.3f s (%.3f× the baseline)",
                (snapshot as NSString).lastPathComponent, Double(report.snapshotBytes) / 1e6, report.restoreSeconds,
                report.tailEntries, report.tailReplaySeconds, total, total / report.fullReplaySeconds))
        print(
            String(
                format: "taking a snapshot of the end state: %.4f s on dispatch's actor, %.3f s encoding it off the actor",
                report.takeSeconds, report.encodeSeconds))
        for part in report.parts {
            print(
                "  " + part.name.padding(toLength: 28, withPad: " ", startingAt: 0)
                    + String(
                        format: "%7.2f MB  encode %.3f s  decode %.3f s", Double(part.bytes) / 1e6, part.encode, part.decode))
        }
        print(
            "the same \(report.tailMessages) messages for the entries after the snapshot, the same end state: "
                + (report.identical ? "yes" : "NO"))
        for difference in report.differences { print("  differs: \(difference)") }
        if !report.identical { throw ExitCode.failure }
    }
}
