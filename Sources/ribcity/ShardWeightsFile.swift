import City
import Foundation
import ProcessSupport
import RideDispatch
import Scenarios
import Topology

/// The zones' demand weights a dispatch shard split the city by, kept beside its journal
/// (`JOURNAL.regions`): drawing the demand again to find them takes seconds on a big city (6.5 s
/// for nyc-day), and a shard that restarts must serve again within a second. Tied to the
/// topology file's CRC-32, the shard count and the zone size; a file that does not match, or
/// that cannot be read, is passed over and the weights are drawn again.
struct ShardWeightsFile: Codable, Equatable {
    var topologyCRC32: UInt32
    var shards: Int
    var zoneMetres: Double
    var weights: [Double]

    /// Where the weights of the shard journaling to `journal` are kept.
    static func path(besideJournal journal: String) -> String { journal + ".regions" }

    /// The weights kept at `path` if they are for `plan`, read from `topologyPath` (the file as it
    /// is now), else nil.
    static func read(_ path: String, for plan: Topology, at topologyPath: String, zones: Int) -> [Double]? {
        guard let data = FileManager.default.contents(atPath: path),
            let kept = try? JSONDecoder().decode(ShardWeightsFile.self, from: data),
            let crc = FileChecksum.crc32(ofFile: topologyPath),
            kept
                == ShardWeightsFile(
                    topologyCRC32: crc, shards: plan.dispatchShards, zoneMetres: plan.dispatch.zoneSize, weights: kept.weights),
            kept.weights.count == zones, kept.weights.allSatisfy({ $0.isFinite && $0 >= 0 })
        else { return nil }
        return kept.weights
    }

    /// Keeps `weights` for `plan` at `path`, written whole or not at all (a temporary file renamed).
    static func write(_ weights: [Double], for plan: Topology, at topologyPath: String, to path: String) throws {
        guard let crc = FileChecksum.crc32(ofFile: topologyPath) else { return }
        let file = ShardWeightsFile(
            topologyCRC32: crc, shards: plan.dispatchShards,
            zoneMetres: plan.dispatch.zoneSize, weights: weights)
        try JSONEncoder().encode(file).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// A dispatch shard's map, and the file its weights were read from: the weights kept beside its
/// journal when they are there and for this topology, else drawn from the topology's demand
/// (and then kept there). Nil for one dispatch.
func dispatchShardMap(
    of plan: Topology, at topologyPath: String, graph: RoadGraph, journal: String?, keepingWeights: Bool = true
) throws -> (map: ShardMap, readFrom: String?)? {
    guard plan.dispatchShards > 1 else { return nil }
    let zones = ZoneGrid(graph: graph, cellSize: plan.dispatch.zoneSize)
    let kept = journal.map { ShardWeightsFile.path(besideJournal: $0) }
    if let kept, let weights = ShardWeightsFile.read(kept, for: plan, at: topologyPath, zones: zones.zoneCount) {
        return (try checked(ShardMap(zones: zones, weights: weights, shards: plan.dispatchShards), of: plan), kept)
    }
    let prepared = try prepareTopology(plan, graph: graph)
    let shardPlan = ShardPlan(scenario: prepared.scenario, shards: plan.dispatchShards)
    if let kept, keepingWeights { try? ShardWeightsFile.write(shardPlan.weights, for: plan, at: topologyPath, to: kept) }
    return (try checked(shardPlan.map, of: plan), nil)
}
