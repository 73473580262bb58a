import ArgumentParser
import City
import Foundation
import TransportBench
import Wire
import ZeroMQ

/// `ribcity demo`: the transport shown end to end between two ribcity processes.
///
/// This process plays dispatch (a ROUTER for sessions, a PUB for events); it starts a second
/// ribcity process that plays a rider session (a DEALER and a SUB). Both print every message
/// that crosses, and the rider also sends one malformed frame, which is counted and dropped.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Two ribcity processes exchange a ride's messages over ZeroMQ and print what crossed."
    )

    @Flag(help: "Use tcp on 127.0.0.1 instead of ipc.")
    var tcp = false

    @Flag(
        help: "Start no rider process: serve one outside client (e.g. the Python one in docs/PROTOCOL.md) until it says goodbye.")
    var external = false

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
        log.note("dispatch listening: sessions on \(sessions), events on \(bus)")

        let rider =
            external
            ? nil
            : Task {
                try await PeerProcess.run(arguments: ["demo-peer", "--sessions", sessions, "--events", bus])
            }
        if external { log.note("waiting for a client: connect a DEALER to \(sessions)") }
        var dispatch = DemoDispatch(log: log, router: router, events: events)
        try await dispatch.serve()
        try await rider?.value
        let stats = router.statistics()
        log.note("done: \(stats.received) messages in, \(stats.sent) out, \(dispatch.malformed.total) malformed dropped")
        await transport.shutdown()
    }
}

/// The dispatch side of the demo: answers a session's requests and walks its ride to the end.
struct DemoDispatch {
    let log: Transcript
    let router: Socket
    let events: Socket
    var stamper = SequenceStamper(sender: "dispatch")
    var busStamper = SequenceStamper(sender: "dispatch-bus")
    var malformed = WireErrorCounts()

    init(log: Transcript, router: Socket, events: Socket) {
        self.log = log
        self.router = router
        self.events = events
    }

    mutating func serve() async throws {
        while true {
            let message = try await router.receive()
            let request: Frames.Routed
            do {
                request = try Frames.Routed(frames: message.frames)
            } catch {
                malformed.record(error)
                log.note("dropped a malformed frame: \(error)")
                continue
            }
            let peer = request.envelope.sender
            log.received(request.envelope, from: peer)
            switch request.envelope.body {
            case let .hello(hello)?:
                try await reply(
                    to: request,
                    .welcome(
                        Welcome.with {
                            $0.sessionID = hello.sessionID
                            $0.heartbeatIntervalMs = 1_000
                            $0.sessionTimeoutMs = 5_000
                        }))
            case let .quoteRequest(quote)?:
                try await reply(to: request, .quote(Self.quote(for: quote)))
            case let .rideRequest(ride)?:
                try await reply(to: request, .requestReceived(RequestReceived.with { $0.requestID = ride.requestID }))
                try await publish(.requestCreated, ride.requestID)
                for state in [TripState.driverAssigned, .driverArrived, .onTrip, .completed] {
                    try await Task.sleep(for: .milliseconds(150))
                    try await reply(
                        to: request,
                        .tripUpdate(
                            TripUpdate.with {
                                $0.requestID = ride.requestID
                                $0.tripID = "trip-1"
                                $0.state = state
                                $0.driverID = "driver-42"
                                $0.fareCents = state == .completed ? Self.quote(for: ride).priceCents : 0
                            }))
                    if state == .completed { try await publish(.tripCompleted, ride.requestID) }
                }
            case .rateTrip?:
                break
            case .goodbye?:
                return
            default:
                try await reply(
                    to: request,
                    .error(
                        ErrorReply.with {
                            $0.code = .invalidState
                            $0.reason = "the demo does not serve \(request.envelope.bodyName)"
                        }))
            }
        }
    }

    private mutating func reply(to request: Frames.Routed, _ body: Envelope.OneOf_Body) async throws {
        let envelope = Envelope(body, from: stamper.next(), inReplyTo: request.envelope.messageID)
        log.sent(envelope, to: request.envelope.sender)
        try await router.sendConfirmed(Message(Frames.Routed(peer: request.peer, envelope: envelope).frames))
    }

    private mutating func publish(_ kind: DispatchEventKind, _ requestID: String) async throws {
        let event = DispatchEvent.with {
            $0.kind = kind
            $0.requestID = requestID
        }
        let published = Frames.Published(
            topic: Topic.dispatchRequest,
            envelope: Envelope(.dispatchEvent(event), from: busStamper.next()))
        try await events.send(Message(published.frames))
    }

    /// A plausible fare from straight-line distance; the real pricing comes with the dispatch engine.
    static func quote(for request: QuoteRequest) -> Quote {
        let kilometres = GeoPoint(request.pickup).distance(to: GeoPoint(request.dropoff)) / 1000
        return Quote.with {
            $0.quoteID = "q-\(request.riderID)"
            $0.riderID = request.riderID
            $0.product = request.product
            $0.distanceM = UInt32(kilometres * 1000)
            $0.tripDurationS = UInt32(kilometres / 20 * 3600)
            $0.priceCents = Int64(250 + 175 * kilometres + 35 * kilometres / 20 * 60)
            $0.surgeMultiplier = 1
            $0.pickupEtaS = 240
        }
    }

    static func quote(for ride: RideRequest) -> Quote {
        quote(
            for: QuoteRequest.with {
                $0.riderID = ride.riderID
                $0.pickup = ride.pickup
                $0.dropoff = ride.dropoff
                $0.product = ride.product
            })
    }
}
