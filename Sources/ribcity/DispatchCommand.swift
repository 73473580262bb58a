import ArgumentParser
import City
import DispatchService
import Foundation
import ProcessSupport
import RideDispatch
import Topology
import Wire
import ZeroMQ

/// `ribcity dispatch --topology FILE`: the dispatch role — the engine behind a ROUTER for
/// sessions and a PUB for the event bus, on the topology's city and settings.
struct DispatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dispatch",
        abstract: "Run the dispatch role: sessions on a ROUTER, state changes on a PUB (docs/PROTOCOL.md).",
        discussion: """
            Examples:
              ribcity dispatch --topology Topologies/downtown.yaml --journal dispatch.journal
              (ribcity launch starts it with the run's endpoints; by hand it serves the topology's)
            """
    )

    @OptionGroup var topologyFile: TopologyArgument
    var topology: String { topologyFile.path }

    @Option(help: "Endpoint for sessions (default: from the topology).")
    var sessions: String?

    @Option(
        help: ArgumentHelp(
            "Also serve sessions over a Unix packet link here (unix://PATH), beside --sessions.",
            discussion:
                "For a run's own hosts on this machine: their messages reach dispatch without libzmq's threads. ribcity launch gives one in virtual time over ipc without CURVE; every other client uses --sessions."
        ))
    var localSessions: String?

    @Option(help: "Sharded dispatch (dispatch: {shards: N} in the topology): the shard this process is, from 0.")
    var shard = 0

    @Option(
        help: ArgumentHelp(
            "Sharded dispatch: every shard's sessions endpoint, in shard order, once each (default: from the topology).",
            discussion: "A shard reaches the others there to match across its borders."))
    var shardSessions: [String] = []

    @Option(help: "Endpoint for the event bus PUB (default: from the topology).")
    var bus: String?

    @Option(help: "Publish through a bus proxy: connect to its publisher endpoint instead of binding --bus.")
    var publishTo: String?

    @Option(help: "Simulated seconds per wall second (default: the topology's).")
    var speed: Double?

    @Option(
        help: ArgumentHelp(
            "Wall-clock time (Unix milliseconds) at which simulated time was 0 (default: this process's start).",
            discussion:
                "ribcity launch gives every dispatch shard the same one, so that their clocks agree; a journal being restored keeps its own."
        ))
    var clockOriginMs: Int64?

    @OptionGroup var virtualTime: VirtualTimeOptions

    @OptionGroup var messageFaults: FaultOptions

    @Option(
        help:
            "Write every input to this journal; if it already holds a run, restore that run from it first (docs/ARCHITECTURE.md)."
    )
    var journal: String?

    @Option(
        help: ArgumentHelp(
            "With a journal: snapshot dispatch's state once this many journal entries came since the last (at most a fifth of a core on encoding, a twentieth in virtual time), so that a restart replays only what came after; 0: never.",
            valueName: "entries"))
    var snapshotEvery = 10_000

    /// Snapshots in wall-clock time may take a fifth of a core: a live city has it to spare and
    /// its restarts are felt as lag. In virtual time every CPU second of dispatch's is a second
    /// of the run's (dispatch paces most windows), so they take a twentieth, and a restart
    /// replays a longer tail (docs/PERFORMANCE.md, "Dispatch recovery time").
    static func snapshotPolicy(every entries: Int, virtual: Bool) -> SnapshotPolicy {
        SnapshotPolicy(everyEntries: entries, cpuShare: virtual ? 0.05 : 0.2)
    }

    /// The desk's settings for shard `shard` of `plan` (`map`: the shards' regions, nil
    /// unsharded): what a restart and `bench recovery` must give the desk too, or the journal's
    /// entries replay into other answers.
    static func deskSettings(of plan: Topology, shard: Int, map: ShardMap?) -> DispatchDesk.Settings {
        var settings = DispatchDesk.Settings()
        settings.speed = plan.speed
        // A session acts only for its own process's share of the city (docs/ARCHITECTURE.md, threat model).
        settings.owners = .split(of: plan)
        var border = BorderDesk.Settings()
        border.margin = plan.border.marginSeconds
        border.reach = plan.border.reachZones
        border.patience = plan.border.patienceSeconds
        // A granted reservation outlives the ask that asked for it, so that a grant in time is used.
        border.lifetime = max(border.lifetime, 2 * border.patience)
        settings.shard = map.map { DeskShard(index: shard, map: $0, border: border) }
        return settings
    }

    func run() async throws {
        let plan = try readTopology(topology)
        // A restart reads its journal and decodes its snapshot while the city loads (both take a
        // few tenths of a second, on different cores).
        let restorePoint: Task<RestorePoint, any Error>? = journal.map { path in
            Task.detached { [snapshotEvery] in try RestorePoint.load(journal: path, snapshots: snapshotEvery > 0) }
        }
        let graph = try loadCity(of: plan)
        guard (0..<plan.dispatchShards).contains(shard) else {
            throw ValidationError(
                "--shard \(shard): the topology has \(plan.dispatchShards) dispatch shards (0 to \(plan.dispatchShards - 1))")
        }
        let name = WireIDs.dispatchProcess(shard: shard, of: plan.dispatchShards)
        let sharded = try dispatchShardMap(of: plan, at: topology, graph: graph, journal: journal)
        if let file = sharded?.readFrom { print("\(name): the regions' weights read from \(file)") }
        let endpoints = plan.endpoints.dispatch(run: plan.name, temporaryDirectory: NSTemporaryDirectory())
        let ownSessions = plan.endpoints.sessions(ofShard: shard, run: plan.name, temporaryDirectory: NSTemporaryDirectory())
        let peers =
            plan.dispatchShards > 1 ? try shardSessionEndpoints(shardSessions, of: plan, option: "--shard-sessions") : []
        try await Transport.using(name: name + "-io") { transport in
            try await secureRole(
                transport, as: name, sessions: peers,
                bus: [publishTo, virtualTime.keeperEndpoint(of: plan)])
            var options = SocketOptions()
            options.routerMandatory = true
            // A session that stops reading must not hold up everyone else's messages: after half a
            // second its messages are counted undeliverable (it gets what it missed when it says Hello).
            options.fullPeerTimeout = .milliseconds(500)
            // A frame larger than any envelope may be is refused by libzmq at its header, with its
            // connection, before anything is read into memory (a bigger one would only be counted
            // too large after arriving whole).
            options.maximumMessageBytes = Int64(WireCodec.maximumPayloadBytes + 64 << 10)
            // What dispatch holds of what it has not handled yet is bounded in bytes as well as in
            // messages, and libzmq queues at most 100 messages per connection: a flood of large
            // frames waits in its senders' queues, not in dispatch (a sender is only slowed down).
            options.inboundByteCapacity = 32 << 20
            options.receiveHighWaterMark = 100
            let router = try await transport.socket(.router, options: options)
            let pub = try await transport.socket(.pub, options: .eventBus)
            let sessionsAt = try await router.bind(plan.endpoints.listening(on: sessions ?? ownSessions))
            if let localSessions {
                guard localSessions.hasPrefix("unix://") else {
                    throw ValidationError("--local-sessions: \(localSessions) is not a unix://PATH endpoint")
                }
                _ = try await router.bind(localSessions)
            }
            if publishTo != nil, bus != nil {
                throw ValidationError("--bus binds dispatch's own PUB; --publish-to connects it to a proxy: not both")
            }
            let busAt: String
            if let publishTo {
                try await pub.connect(publishTo)
                busAt = publishTo + " (through the bus proxy)"
            } else {
                busAt = try await pub.bind(bus ?? endpoints.bus)
            }
            var point: RestorePoint?
            var journalFile: DispatchJournal?
            if let journal, let restorePoint {
                do {
                    point = try await restorePoint.value
                    journalFile = try DispatchJournal(path: journal, continuing: point?.journal)
                } catch let error as JournalError {
                    throw BadInput(error.description)
                }
            }
            var origin = clockOriginMs
            var speed = speed ?? plan.speed
            if case .started(let wallOriginMs, let journalSpeed)? = point?.journal.first {
                // The run's clock is the journal's: the sessions still keep it.
                origin = wallOriginMs
                speed = journalSpeed
            }
            let faults = try messageFaults.faults(stream: 31)
            let settings = Self.deskSettings(of: plan, shard: shard, map: sharded?.map)
            // Where this build keeps what it imports (every run of the city reads its routing
            // hierarchies there instead of contracting the roads again), else beside the journal
            // (the run's directory, shared by the shards: a restart reads them).
            let hierarchies =
                HierarchyStore.standard
                ?? journal.map { path in
                    let directory = (path as NSString).deletingLastPathComponent
                    return HierarchyStore(directory: directory.isEmpty ? "." : directory)
                }
            let travel = plan.travelTimes(on: graph, store: hierarchies)
            if let hierarchies {
                for skipped in hierarchies.skipped { print("\(name) passed over a routing hierarchy: \(skipped)") }
                print(
                    "\(name): \(hierarchies.read) routing hierarchies read, \(hierarchies.built) built, in \(hierarchies.directory)"
                )
            }
            let server = DispatchServer(
                travel: travel, configuration: plan.dispatch, settings: settings,
                router: router, bus: pub, speed: speed, journal: journalFile, wallOriginMs: origin,
                snapshots: snapshotEvery > 0
                    ? Self.snapshotPolicy(every: snapshotEvery, virtual: virtualTime.isVirtual(plan)) : nil,
                faults: faults)
            var links: [Int: Socket] = [:]
            // The shards start together: another may not have bound yet.
            for (other, endpoint) in peers.enumerated() where other != shard {
                let dealer = try await transport.socket(.dealer, options: .connectingToPeerStartedAlongside)
                try await dealer.connect(endpoint)
                links[other] = dealer
            }
            await server.link(toShards: links)
            let virtualClock = try await virtualTime.clock(of: plan, as: name, on: transport)
            if let clock = virtualClock {
                await server.enterVirtualTime(DispatchServer.VirtualClock(life: clock.life, latency: clock.latency))
            }
            if let journal, let restoring = point, restoring.journal.count > 0 {
                let contents = restoring.journal
                let began = ContinuousClock.now
                let recovery = try await server.restore(from: restoring)
                for skipped in recovery.skippedSnapshots { print("\(name) passed over a snapshot: \(skipped)") }
                print(
                    String(
                        format:
                            name
                            + " restored from %@: %@%d of %d entries (%d bytes%@) replayed to %.1f s simulated in %.2f s wall; "
                            + "%d requests, %d sessions; resumed at %.1f s",
                        journal,
                        recovery.snapshot.map {
                            String(
                                format: "snapshot %@ (read beside the city in %.2f s), then ", ($0 as NSString).lastPathComponent,
                                restoring.loadSeconds)
                        } ?? "",
                        recovery.replayed, recovery.entries, contents.validBytes,
                        contents.truncated ? ", a torn last record cut" : "",
                        recovery.replayedTo, (ContinuousClock.now - began) / .seconds(1), recovery.requests, recovery.sessions,
                        recovery.resumedAt))
            }
            // The replayed entries are done with: their memory goes back before the run goes on.
            point = nil
            // Told to stop from the moment it says it is ready (a stop before it serves is kept).
            let signals = await onInterrupt { Task { await server.stop() } }
            print(
                "\(name) pid \(getpid()) ready: \(graph.nodeCount) road nodes; sessions on \(sessionsAt)"
                    + (localSessions.map { " and \($0)" } ?? "") + ", events on \(busAt); "
                    + "\(server.speed)× wall time"
            )
            let readiness = ReadinessAnnouncer(role: .dispatch, processID: name, endpoints: [sessionsAt], publisher: pub)
            if let clock = virtualClock {
                print("dispatch runs in virtual time: life \(clock.life), latency \(clock.latency.wireMilliseconds) ms")
                try await server.runVirtual(
                    DispatchServer.VirtualClock(life: clock.life, latency: clock.latency), windows: clock.windows)
            } else {
                try await server.run()
            }
            readiness.stop()
            signals.forEach { $0.cancel() }
            let counts = await server.counts
            print(
                "\(name) stopped: \(counts.malformed) malformed, \(counts.refused) refused (\(counts.forbidden) forbidden), \(counts.rateLimited) over the rate limit, "
                    + "\(counts.undeliverable) undeliverable messages"
            )
            let published = await server.published
            print(
                "\(name) totals: \(published[.requestCreated] ?? 0) requests, \(published[.tripCompleted] ?? 0) completed, "
                    + "\(published[.requestCancelled] ?? 0) cancelled, \(published[.requestRejected] ?? 0) rejected, "
                    + "\(published[.offerAccepted] ?? 0) matched"
                    + (plan.dispatchShards > 1 ? ", \(await server.driversHandedOver) handovers" : "")
                    + (await server.borderCounts.map { ", \($0.handedOut) handed-out, \($0.handedIn) handed-in" } ?? "")
            )
            if let counts = await server.borderCounts {
                print(
                    "\(name) across its borders: \(counts.asked) requests asked for, \(counts.granted) granted, "
                        + "\(counts.refused) refused, \(counts.unanswered) unanswered; "
                        + "\(counts.reserveGranted) of \(counts.reserveAsked) reservations granted to its neighbours")
            }
            let snapshots = await server.snapshotsWritten
            if snapshots.count + snapshots.failures > 0 {
                print(
                    String(
                        format: name + " snapshots: %d written (the last %d bytes in %.3f s), %d failed%@", snapshots.count,
                        snapshots.lastBytes, snapshots.lastSeconds, snapshots.failures,
                        snapshots.lastFailure.map { ", the last: \($0)" } ?? ""))
            }
            if !faults.isEmpty {
                print("\(name) message faults: \(await server.faults.summary)")
            }
            let violations = await server.violations
            print(
                violations.isEmpty
                    ? "\(name) invariants: held" : "\(name) invariants: \(violations.count) broken, first: \(violations[0])")
        }
    }
}
