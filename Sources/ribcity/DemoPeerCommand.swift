import ArgumentParser
import Foundation
import Wire
import ZeroMQ

/// The rider-session side of `ribcity demo`, started by it as a second process.
struct DemoPeerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-peer",
        abstract: "The rider session of `ribcity demo` (started by it).",
        shouldDisplay: false
    )

    @Option(help: "Dispatch's session endpoint.")
    var sessions: String

    @Option(help: "Dispatch's event endpoint.")
    var events: String

    func run() async throws {
        let log = Transcript(process: "riders   pid \(getpid())")
        let session = "riders-1"
        let transport = try Transport(name: "riders-io")
        var options = SocketOptions()
        options.routingID = Array(session.utf8)
        let dealer = try await transport.socket(.dealer, options: options)
        try await dealer.connect(sessions)
        let bus = try await transport.socket(.sub, options: .subscribing(to: [Topic.dispatch]))
        try await bus.connect(events)
        let watcher = Task {
            var tracker = SequenceTracker()
            for try await batch in bus.batches() {
                for message in batch {
                    guard let published = try? Frames.Published(frames: message.frames) else { continue }
                    _ = tracker.observe(sender: published.envelope.sender, sequence: published.envelope.sequence)
                    log.received(published.envelope, from: "bus \(published.topic)")
                }
            }
        }

        var stamper = SequenceStamper(sender: session)
        func send(_ body: Envelope.OneOf_Body) async throws {
            let envelope = Envelope(body, from: stamper.next())
            log.sent(envelope, to: "dispatch")
            try await dealer.send(Message(WireCodec.encode(envelope)))
        }
        func receive() async throws -> Envelope {
            let envelope = try Frames.direct(try await dealer.receive().frames)
            log.received(envelope, from: "dispatch")
            return envelope
        }

        try await send(
            .hello(
                Hello.with {
                    $0.role = .riders
                    $0.sessionID = session
                    $0.appIds = ["rider-1"]
                    $0.pid = getpid()
                    $0.sessionToken = SessionToken.draw()
                }))
        _ = try await receive()
        log.note("sending a malformed frame on purpose")
        try await dealer.send(Message(Array("this is not protobuf".utf8)))
        guard case .error(let refusal)? = try await receive().body, refusal.code == .malformed else {
            throw ValidationError("expected dispatch to answer the malformed frame with MALFORMED")
        }

        let pickup = LatLon.with {
            $0.lat = 40.7061; $0.lon = -74.0087
        }  // Wall Street
        let dropoff = LatLon.with {
            $0.lat = 40.7580; $0.lon = -73.9855
        }  // Times Square
        try await send(
            .quoteRequest(
                QuoteRequest.with {
                    $0.riderID = "rider-1"
                    $0.pickup = pickup
                    $0.dropoff = dropoff
                    $0.product = .uberX
                }))
        guard case let .quote(quote)? = try await receive().body else { throw ValidationError("expected a quote") }
        try await send(
            .rideRequest(
                RideRequest.with {
                    $0.requestID = "rider-1:ride-1"
                    $0.riderID = "rider-1"
                    $0.quoteID = quote.quoteID
                    $0.pickup = pickup
                    $0.dropoff = dropoff
                    $0.product = .uberX
                    $0.seats = 1
                }))
        var tripID = ""
        while true {
            guard case let .tripUpdate(update)? = try await receive().body else { continue }
            tripID = update.tripID
            if [.completed, .cancelled, .rejected].contains(update.state) { break }
        }
        try await send(
            .rateTrip(
                RateTrip.with {
                    $0.tripID = tripID
                    $0.riderID = "rider-1"
                    $0.stars = 5
                }))
        try await send(.goodbye(Goodbye.with { $0.reason = "ride complete" }))
        try await Task.sleep(for: .milliseconds(100))
        watcher.cancel()
        await transport.shutdown()
    }
}
