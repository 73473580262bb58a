import AppHost
import ArgumentParser
import City
import Demand
import Faults
import Foundation
import ProcessSupport
import RideDispatch
import Scenarios
import Simulation
import Topology
import Wire
import ZeroMQ

/// Reads a topology for a role's command; a bad file is a usage error naming file, key and line.
func readTopology(_ path: String) throws -> Topology {
    do { return try TopologyReader.read(path: path) } catch { throw BadInput(error.description) }
}

/// The topology at `path` with its demand scaled by `factor`.
func scaledTopology(_ path: String, _ factor: Double) throws -> Topology {
    do { return try readTopology(path).scalingDemand(by: factor) } catch let error as TopologyError {
        throw BadInput(error.description)
    }
}

/// Loads a topology's road graph; a bad OSM file is bad input naming it.
func loadCity(of plan: Topology) throws -> RoadGraph {
    do { return try plan.city.load() } catch let error as CityImportError { throw BadInput(error.description) }
}

/// Loads a topology's city and demand; a bad OSM or record file is bad input naming it.
/// `graph`: the plan's city, when the caller has loaded it already.
func prepareTopology(_ plan: Topology, graph: RoadGraph? = nil) throws -> PreparedTopology {
    do {
        return try PreparedTopology(plan, graph: graph)
    } catch let error as CityImportError {
        throw BadInput(error.description)
    } catch let error as DemandError {
        throw BadInput(error.description)
    }
}

/// The run's rides drawn once, for the processes the coordinator starts to read (`--demand`):
/// written to `path`.
func writePlacedDemand(of plan: Topology, to path: String) throws {
    let prepared = try prepareTopology(plan)
    let bytes = PlacedDemandFile.encode(
        rides: prepared.scenario.trips, topologyFingerprint: topologyFingerprint(plan), graph: prepared.scenario.graph)
    do { try Data(bytes).write(to: URL(fileURLWithPath: path)) } catch {
        throw BadInput("\(path): cannot write the run's placed demand: \(error.localizedDescription)")
    }
}

/// `plan` with the rides another process drew and placed (``writePlacedDemand(of:to:)``), read
/// from `path`; a file that is not theirs, or for another topology or city, is bad input naming it.
func preparedTopology(_ plan: Topology, placedDemand path: String) throws -> PreparedTopology {
    let graph = try loadCity(of: plan)
    let bytes: [UInt8]
    do { bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
        throw BadInput("--demand \(path): cannot read it: \(error.localizedDescription)")
    }
    do {
        let rides = try PlacedDemandFile.decode(bytes, topologyFingerprint: topologyFingerprint(plan), graph: graph)
        return PreparedTopology(plan, graph: graph, drawnRides: rides)
    } catch {
        throw BadInput("--demand \(path): \(error.description)")
    }
}

/// The same number for the same topology in every process: the CRC-32 of it written out whole.
private func topologyFingerprint(_ plan: Topology) -> UInt32 {
    CRC32.of(Array(TopologyWriter.yaml(plan).utf8))
}

/// `--message-faults SPEC --fault-seed N`: faults in what a role sends (stress mode; none unless asked).
struct FaultOptions: ParsableArguments {
    @Option(help: "Stress: faults in what this process sends, as drop=P,duplicate=P,delay=P:200ms (any subset).")
    var messageFaults: String?

    @Option(help: "Seeds the message faults.")
    var faultSeed: UInt64 = 1

    /// The faults asked for, drawn from the seed mixed with `stream` (each process its own draws).
    func faults(stream: UInt64 = 0) throws -> MessageFaults {
        guard let messageFaults else { return MessageFaults() }
        return try Self.parse(messageFaults, seed: faultSeed &+ stream)
    }

    /// The arguments that pass `spec` on to a role, checked first (stress mode passes its options on).
    static func arguments(_ spec: String?, seed: UInt64) throws -> [String] {
        guard let spec else { return [] }
        _ = try parse(spec, seed: seed)
        return ["--message-faults", spec, "--fault-seed", "\(seed)"]
    }

    private static func parse(_ spec: String, seed: UInt64) throws -> MessageFaults {
        do { return try MessageFaults(parsing: spec, seed: seed) } catch { throw ValidationError(error.description) }
    }
}

/// In a run with keys (launched with CURVE on, `RIBCITY_KEYS` set): secures this role's transport
/// as process `name` — what it binds admits only the run's keys, and what it connects to is known
/// by its server's key (dispatch's for `sessions`, the coordinator's for the bus endpoints).
/// Without keys it does nothing. Call before making any socket.
func secureRole(_ transport: Transport, as name: String, sessions: [String], bus: [String?]) async throws {
    do {
        try await RunKeys.secure(transport, as: name, servers: RunKeys.servers(sessions: sessions, bus: bus))
    } catch let failure as RunKeys.Failure {
        throw ValidationError(failure.description)
    }
}

/// Every dispatch shard's sessions endpoint, in shard order: those given with `option`, or the
/// topology's when none are; refused unless there is one for each shard.
func shardSessionEndpoints(_ given: [String], of plan: Topology, option: String) throws -> [String] {
    let endpoints =
        given.isEmpty
        ? plan.endpoints.shardSessions(plan.dispatchShards, run: plan.name, temporaryDirectory: NSTemporaryDirectory())
        : given
    guard endpoints.count == plan.dispatchShards else {
        throw ValidationError(
            "\(option) given \(endpoints.count) times; the topology's dispatch has \(plan.dispatchShards) shards: one for each, in order"
        )
    }
    return endpoints
}

/// The map of who owns what in a sharded dispatch (nil for one dispatch): every process computes
/// it from the topology as written — the demand it draws before any scaling — so that all agree.
/// `prepared` spares preparing the topology again when the caller has it (unscaled), `graph`
/// loading its city again.
func shardMap(of plan: Topology, prepared: PreparedTopology? = nil, graph: RoadGraph? = nil) throws -> ShardMap? {
    guard plan.dispatchShards > 1 else { return nil }
    return try checked(
        ShardPlan(scenario: try (prepared ?? prepareTopology(plan, graph: graph)).scenario, shards: plan.dispatchShards).map,
        of: plan)
}

/// `map`, if it has a region for every shard of `plan`; else bad input naming the key.
func checked(_ map: ShardMap, of plan: Topology) throws -> ShardMap {
    guard map.shards == plan.dispatchShards else {
        throw BadInput(
            "\(plan.file): dispatch.shards: \(plan.dispatchShards) shards, but the city has only \(map.shards) "
                + "zones of \(Int(plan.dispatch.zoneSize)) m to share out (fewer shards, or a smaller dispatch.surge.zone_m)")
    }
    return map
}
