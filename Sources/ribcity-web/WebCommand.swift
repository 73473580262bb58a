import ArgumentParser
import Foundation
import Hummingbird
import ProcessSupport
import Topology
import WebMonitor
import Wire
import ZeroMQ

/// `ribcity-web`: the web monitor. Follows the event bus like `ribcity monitor` and serves a page
/// with a live map, charts and the processes' health, and Prometheus metrics. `ribcity launch
/// --web PORT` (or `monitor: { web: { port: N } }` in a topology) starts it beside the run; it is a
/// program of its own so that Hummingbird stays out of `ribcity`'s build.
@main
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ribcity-web",
        abstract: "Serve a run's live map, charts and metrics on a web page.",
        discussion: """
            Examples:
              ribcity launch Topologies/downtown.yaml --web 8080      # starts it for the run
              ribcity-web --topology Topologies/downtown.yaml --port 8080 --bus ipc:///tmp/…-bus-out
            """
    )

    @Option(help: "The topology file of the run.")
    var topology: String

    @Option(help: "The port to serve on (0: any free port, printed).")
    var port = 8080

    @Option(help: "The address to serve on.")
    var host = "127.0.0.1"

    @Option(help: "Event bus endpoint (default: from the topology).")
    var bus: String?

    @Option(help: "The bus proxy's publisher endpoint, where the web monitor says it is ready (default: from the topology).")
    var publishTo: String?

    @Option(
        help:
            "Dispatch's sessions endpoint, for the snapshot of a run under way; once per shard, in shard order, when dispatch is sharded (default: from the topology)."
    )
    var sessions: [String] = []

    @Option(help: "The run's directory: its summary.json goes to the pages when the run ends.")
    var runDirectory: String?

    @Option(help: "The shortest time between two frames to a page, in milliseconds (changes in between go out together).")
    var frameGapMs = 5.0

    func validate() throws {
        guard frameGapMs >= 0, frameGapMs <= 10_000 else {
            throw ValidationError("--frame-gap-ms must be between 0 and 10000, not \(frameGapMs)")
        }
    }

    func run() async throws {
        let plan: Topology
        do {
            plan = try TopologyReader.read(path: topology)
        } catch {
            throw ValidationError("\(error)")
        }
        let graph = try plan.city.load()
        let shardSessions =
            sessions.isEmpty
            ? plan.endpoints.shardSessions(plan.dispatchShards, run: plan.name, temporaryDirectory: NSTemporaryDirectory())
            : sessions
        let busOut = bus ?? plan.endpoints.bus(run: plan.name, temporaryDirectory: NSTemporaryDirectory()).subscribe
        let busIn = publishTo ?? plan.endpoints.bus(run: plan.name, temporaryDirectory: NSTemporaryDirectory()).publish
        try await Transport.using(name: "web-io") { transport in
            try await RunKeys.secure(
                transport, as: "web", servers: RunKeys.servers(sessions: shardSessions, bus: [busOut, busIn]))
            let publisher = try await transport.socket(.pub, options: .eventBus)
            try await publisher.connect(busIn)
            let hub = WebHub(
                map: CityMap(graph: graph, zoneSize: plan.dispatch.zoneSize), title: plan.name,
                startSecondOfDay: plan.startSecondOfDay, frameGap: .microseconds(Int64(frameGapMs * 1_000))
            ) { topic, envelope in
                try? await publisher.send(Message(Frames.Published(topic: topic, envelope: envelope).frames))
            }
            let sub = try await transport.socket(.sub, options: .eventBus)
            try await sub.connect(busOut)
            for topic in [Topic.dispatch, Topic.status, Topic.notice, Topic.inspectReply] { try await sub.subscribe(topic) }
            let dealers = try await askEveryShardForSnapshot(at: shardSessions, on: transport, as: "web")
            let (served, announce) = AsyncStream<Int>.makeStream()
            let app = WebServer.application(hub: hub, host: host, port: port) { port in
                announce.yield(port)
                announce.finish()
            }
            let runDirectory = self.runDirectory
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.runService(gracefulShutdownSignals: []) }
                group.addTask {
                    for await port in served {
                        FileHandle.standardError.write(Data("web: serving http://\(host):\(port)/\n".utf8))
                        print("web: http://\(host):\(port)/")
                    }
                }
                group.addTask {
                    // Dispatch's snapshot (the Clone pattern) for a run under way, whenever it comes;
                    // a run started with the web monitor tells it everything on the bus from the start.
                    for (process, dealer) in dealers {
                        while true {
                            let reply = try Frames.direct(await dealer.receive().frames)
                            if case .snapshotChunk(let chunk)? = reply.body {
                                await hub.apply(snapshot: chunk, from: process)
                                if chunk.last { break }
                            }
                        }
                    }
                }
                group.addTask {
                    for try await batch in sub.batches() {
                        await hub.apply(batch.compactMap { try? Frames.Published(frames: $0.frames).envelope })
                    }
                }
                // Told to stop from the moment it says it is ready.
                let stopping = AsyncStream<Void>.makeStream()
                let signals = await onInterrupt { stopping.continuation.yield() }
                let readiness = try await ReadinessAnnouncer(role: .monitor, processID: "web", bus: busIn, on: transport)
                // Stopped (the run is over): the summary goes to the pages, which keep showing it.
                for await _ in stopping.stream { break }
                signals.forEach { $0.cancel() }
                if let runDirectory,
                    let summary = try? String(
                        contentsOfFile: (runDirectory as NSString).appendingPathComponent("summary.json"), encoding: .utf8)
                {
                    await hub.finish(summary: summary)
                    try? await Task.sleep(for: .seconds(1))
                }
                readiness.stop()
                group.cancelAll()
            }
        }
    }
}
