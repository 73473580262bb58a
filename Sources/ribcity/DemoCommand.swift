import ArgumentParser
import City
import DispatchService
import Foundation
import RideDispatch
import SessionClient
import TransportBench
import Wire
import ZeroMQ

/// `ribcity demo`: the transport and the real dispatch shown end to end between two ribcity
/// processes.
///
/// This process runs the real dispatch (`DispatchServer`: the desk and the engine behind a ROUTER
/// for sessions and a PUB for events) on a small grid of lower Manhattan, with one scripted driver
/// on a session of its own; it starts a second ribcity process that plays a rider session (a
/// DEALER and a SUB). Both print every message that crosses, and the rider also sends one
/// malformed frame, which dispatch counts and drops.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Two ribcity processes exchange a ride's messages over ZeroMQ and print what crossed.",
        discussion: """
            Examples:
              ribcity demo
            """
    )

    @Flag(help: "Use tcp on 127.0.0.1 instead of ipc.")
    var tcp = false

    @Flag(
        help: "Start no rider process: serve one outside client (e.g. the Python one in docs/PROTOCOL.md) until it says goodbye.")
    var external = false

    /// Wall Street to Times Square and around: 4 km east–west, 7 km north, 250 m blocks.
    static let city = GridCity(
        width: 4_000, height: 7_000, blockLength: 250, speedKmh: 36, origin: GeoPoint(lat: 40.70, lon: -74.02))
    /// Simulated seconds per wall second: a 6 km ride takes a few seconds.
    static let speed = 300.0

    func run() async throws {
        let log = Transcript(process: "dispatch pid \(getpid())")
        let transport = try Transport(name: "dispatch-io")
        var routerOptions = SocketOptions()
        routerOptions.routerMandatory = true
        let router = try await transport.socket(.router, options: routerOptions)
        let events = try await transport.socket(.pub)
        let base = "ipc://\(NSTemporaryDirectory())ribcity-demo-\(getpid())"
        let sessions = try await router.bind(tcp ? "tcp://127.0.0.1:*" : "\(base)-sessions")
        let bus = try await events.bind(tcp ? "tcp://127.0.0.1:*" : "\(base)-events")
        let graph = Self.city.build()
        // The demo's sessions send no heartbeats: a minute of silence is allowed, not five seconds.
        var settings = DispatchDesk.Settings()
        settings.sessionTimeoutMs = 60_000
        let server = DispatchServer(
            travel: TravelTimeSchedule(postedSpeedsOn: graph),
            configuration: DispatchConfiguration(), settings: settings,
            router: router,
            bus: events, speed: Self.speed)
        await server.trace { line in
            switch line {
            case .received(let envelope): log.received(envelope, from: envelope.sender)
            case .sent(let envelope): log.sent(envelope, to: "session")
            case .malformed(let reason):
                log.note("dropped a malformed frame: \(reason)")
            }
        }
        log.note(
            "dispatch listening: sessions on \(sessions), events on \(bus); "
                + "\(graph.nodeCount) road nodes, \(Self.speed)× wall time")
        let serving = Task { try await server.run() }
        let driver = DemoDriver(transport: transport, endpoint: sessions, graph: graph, speed: Self.speed, log: log)
        let driving = Task { try await driver.drive() }
        let ended = try await Self.sessionEnded(on: bus, transport: transport, except: DemoDriver.session)
        let rider =
            external
            ? nil
            : Task {
                try await PeerProcess.run(arguments: ["demo-peer", "--sessions", sessions, "--events", bus])
            }
        if external { log.note("waiting for a client: connect a DEALER to \(sessions)") }
        try await rider?.value
        _ = await ended.value
        driving.cancel()
        await driver.close()
        await server.stop()
        _ = try? await serving.value
        let stats = router.statistics()
        log.note("done: \(stats.received) messages in, \(stats.sent) out, \(await server.counts.malformed) malformed dropped")
        await transport.shutdown()
    }

    /// Finishes when the bus says a session other than `except` has closed (the rider's, or the
    /// outside client's): the demo is over.
    static func sessionEnded(on bus: String, transport: Transport, except: String) async throws -> Task<Void, Never> {
        let watcher = try await transport.socket(.sub)
        try await watcher.connect(bus)
        try await watcher.subscribe(Topic.dispatchSession)
        return Task {
            do {
                for try await batch in watcher.batches() {
                    for message in batch {
                        guard let published = try? Frames.Published(frames: message.frames),
                            case .dispatchEvent(let event)? = published.envelope.body,
                            [.sessionClosed, .sessionExpired].contains(event.kind), event.sessionID != except
                        else { continue }
                        return
                    }
                }
            } catch {}
        }
    }
}

/// The demo's one driver, on a session of its own in the dispatch process: online near the
/// rider's pickup, accepts what it is offered, and reports each leg done when the simulated
/// clock reaches its arrival.
actor DemoDriver {
    static let session = "drivers-demo"
    static let driverID = "driver-42"
    private let client: SessionClient
    private let graph: RoadGraph
    private let log: Transcript

    init(transport: Transport, endpoint: String, graph: RoadGraph, speed: Double, log: Transcript) {
        var settings = SessionClient.Settings()
        settings.speed = speed
        client = SessionClient(
            transport: transport, endpoint: endpoint,
            hello: Hello.with {
                $0.role = .drivers
                $0.sessionID = Self.session
                $0.appIds = [Self.driverID]
            }, settings: settings)
        self.graph = graph
        self.log = log
    }

    func drive() async throws {
        try await client.connect()
        // A few blocks north of Wall Street.
        let start = GeoPoint(lat: 40.712, lon: -74.006)
        _ = try await client.request(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = Self.driverID
                    $0.location = LatLon(start)
                }))
        log.note("\(Self.driverID) is online on its own session (\(Self.session))")
        for await envelope in client.incoming {
            switch envelope.body {
            case .offer(let offer)?:
                _ = try await client.request(
                    .acceptOffer(
                        AcceptOffer.with {
                            $0.offerID = offer.offerID
                            $0.driverID = Self.driverID
                        }))
            case .driveTo(let leg)? where !leg.cancelled:
                let now = await client.clock?.now() ?? 0
                let wait = max(0, leg.arrival.seconds - now) / DemoCommand.speed
                try await Task.sleep(for: .milliseconds(Int64(wait * 1000)))
                _ = try await client.request(
                    .legDone(
                        LegDone.with {
                            $0.driverID = Self.driverID
                            $0.leg = leg.leg
                        }))
            default:
                continue
            }
        }
    }

    func close() async { await client.close() }
}
