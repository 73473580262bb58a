import City
import Foundation
import RideDispatch
import TestSupport
import Testing
import Wire
import ZeroMQ

@testable import DispatchService

@Suite("Dispatch server: the desk over real ZeroMQ sockets")
struct ServerTests {
    @Test(
        "stop() ends a serving dispatch at once, mid-sleep, in wall and in virtual time (it once waited for the loops' next wake-up)"
    )
    func stopsAtOnce() async throws {
        try await within(20) {
            let transport = try Transport(name: "dispatch-stop")
            let graph = GridCity(width: 1_000, height: 1_000, blockLength: 250, speedKmh: 36).build()
            func server() async throws -> DispatchServer {
                DispatchServer(
                    travel: TravelTimeSchedule(postedSpeedsOn: graph), configuration: DispatchConfiguration(),
                    router: try await transport.socket(.router), bus: try await transport.socket(.pub), speed: 1)
            }
            // An hour between ticks: nothing but stop() can end these runs within the guard.
            let wall = try await server()
            let serving = Task { try await wall.run(tick: .seconds(3_600)) }
            try await Task.sleep(for: .milliseconds(50))
            await wall.stop()
            try await serving.value
            let virtual = try await server()
            let windows = try await transport.socket(.sub)
            let servingVirtually = Task {
                try await virtual.runVirtual(.init(life: 1, latency: .seconds(0.5)), windows: windows)
            }
            try await Task.sleep(for: .milliseconds(50))
            await virtual.stop()
            try await servingVirtually.value
            await transport.shutdown()
        }
    }

    @Test("A session over a DEALER: Welcome, an offer for a ride, contiguous bus events, a snapshot current to the bus, Stop")
    func overSockets() async throws {
        // A guard against a hang, as long as the whole suite may take under a starved CI run.
        try await within(200) {
            let transport = try Transport(name: "dispatch-test")
            var routerOptions = SocketOptions()
            routerOptions.routerMandatory = true
            let router = try await transport.socket(.router, options: routerOptions)
            let pub = try await transport.socket(.pub)
            let name = UInt32.random(in: 0...UInt32.max)
            let sessionsEndpoint = try await router.bind("inproc://sessions-\(name)")
            let busEndpoint = try await pub.bind("inproc://bus-\(name)")
            let city = GridCity(width: 2_000, height: 2_000, blockLength: 250, speedKmh: 36)
            let graph = city.build()
            // The test never heartbeats: a session silent for the default 5 s expired whenever
            // the sanitized suite starved this task that long, every later message was answered
            // "unknown session", and the loops below waited for good (a CI rehearsal, 800 s).
            var settings = DispatchDesk.Settings()
            settings.sessionTimeoutMs = 3_600_000
            let server = DispatchServer(
                travel: TravelTimeSchedule(postedSpeedsOn: graph),
                configuration: DispatchConfiguration(), settings: settings,
                router: router, bus: pub, speed: 1)
            let serving = Task { try await server.run() }

            let sub = try await transport.socket(.sub)
            try await sub.connect(busEndpoint)
            try await sub.subscribe(Topic.dispatch)
            try await sub.subscribe(Topic.status)
            let dealer = try await transport.socket(.dealer)
            try await dealer.connect(sessionsEndpoint)
            var stamper = SequenceStamper(sender: "tester")
            func send(_ body: Envelope.OneOf_Body) async throws {
                try await dealer.send(Message([WireCodec.encode(Envelope(body, from: stamper.next()))]))
            }
            // Each wait guarded on its own, so that a hang names the step it stopped at.
            func next(_ what: String) async throws -> Envelope {
                let envelope = try await within(200, "overSockets: the session's \(what)") {
                    try Frames.direct(await dealer.receive().frames)
                }
                if case .error(let error)? = envelope.body { throw Refused(what: what, reason: error.reason) }
                return envelope
            }
            func published(_ what: String) async throws -> Frames.Published {
                try await within(200, "overSockets: the bus's \(what)") {
                    try Frames.Published(frames: await sub.receive().frames)
                }
            }
            func position(_ x: Int, _ y: Int) -> LatLon {
                let point = graph.positions[city.node(x: x, y: y)]
                return LatLon.with {
                    $0.lat = point.lat; $0.lon = point.lon
                }
            }

            try await send(
                .hello(
                    Hello.with {
                        $0.role = .coordinator; $0.sessionID = "tester"; $0.process = "coordinator"
                    }))
            guard case .welcome? = try await next("Welcome").body else { Issue.record("no Welcome"); return }
            // A PUB drops what it sends before a subscription reaches it, and the events below are
            // published once: nothing more goes to dispatch until the bus has brought something
            // (the session's event, or the first status about a second in), which proves both
            // subscriptions arrived (they travel in order). Without this wait the test hung for
            // good whenever its first events beat the subscription (a CI run under TSan, 800 s).
            _ = try await published("first message")
            try await send(
                .driverOnline(
                    DriverOnline.with {
                        $0.driverID = "d-1"; $0.location = position(0, 0)
                    }))
            try await send(
                .rideRequest(
                    Wire.RideRequest.with {
                        $0.requestID = "req-1"; $0.riderID = "r-1"; $0.pickup = position(2, 0); $0.dropoff = position(6, 0)
                    }))
            var sawReceived = false, offer: Wire.Offer?
            while offer == nil {
                switch try await next("offer").body {
                case .requestReceived?: sawReceived = true
                case .offer(let received)?: offer = received
                default: break
                }
            }
            #expect(sawReceived && offer?.driverID == "d-1" && offer?.requestID == "req-1")

            var kinds: [DispatchEventKind] = []
            var sequences: [UInt64] = []
            while !kinds.contains(.offerSent) {
                let event = try await published("events up to offerSent")
                guard event.topic.hasPrefix(Topic.dispatch) else { continue }
                sequences.append(event.envelope.sequence)
                kinds.append(event.envelope.dispatchEvent.kind)
            }
            #expect(kinds.contains(.requestCreated) && kinds.contains(.driverStateChanged))
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 + 1 }, "contiguous: \(sequences)")

            try await send(.snapshotRequest(SnapshotRequest()))
            var chunk: SnapshotChunk?
            while chunk == nil {
                if case .snapshotChunk(let received)? = try await next("snapshot chunk").body { chunk = received }
            }
            #expect(chunk?.last == true && (chunk?.sequenceAt ?? 0) >= sequences.last!)
            #expect(chunk?.state.contains { $0.requestID == "req-1" && $0.tripState == .matching } == true)
            // The run's totals so far, so that a late joiner never counts only what it saw.
            let totals = Dictionary(uniqueKeysWithValues: (chunk?.totals ?? []).map { ($0.kind, $0.count) })
            #expect(totals[.requestCreated] == 1 && totals[.offerSent] == 1, "\(totals)")
            #expect(totals == (await server.published).mapValues { UInt64($0) })

            try await send(.stop(Stop.with { $0.reason = "test over" }))
            try await within(200, "overSockets: the server's end after Stop") { try await serving.value }
            #expect(await server.counts.malformed == 0)
            await transport.shutdown()
        }
    }
}

/// Dispatch answered a step of a test with an error instead of what the step waits for.
private struct Refused: Error, CustomStringConvertible {
    let what: String
    let reason: String
    var description: String { "dispatch refused the \(what) step: \(reason)" }
}
