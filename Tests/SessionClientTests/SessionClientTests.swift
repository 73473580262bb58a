import City
import Foundation
import RideDispatch
import TestSupport
import Testing
import Wire
import ZeroMQ

@testable import DispatchService
@testable import SessionClient

@Suite("Session client: replies, incoming messages, Lazy Pirate retries")
struct SessionClientTests {
    static let hello = Hello.with {
        $0.role = .drivers; $0.sessionID = "drivers-1"
    }

    @Test("Against the real dispatch server: Welcome, a quote as the reply, an offer among incoming messages")
    func withDispatch() async throws {
        try await within(60) {
            let transport = try Transport(name: "client-test")
            var options = SocketOptions()
            options.routerMandatory = true
            let router = try await transport.socket(.router, options: options)
            let endpoint = try await router.bind("inproc://dispatch-\(UInt32.random(in: 0...UInt32.max))")
            let city = GridCity(width: 2_000, height: 2_000, blockLength: 250, speedKmh: 36)
            let graph = city.build()
            // This client sends no heartbeats: on a loaded machine (a full sanitizer run) the session
            // must not expire between requests.
            var desk = DispatchDesk.Settings()
            desk.sessionTimeoutMs = 120_000
            let server = DispatchServer(
                travel: TravelTimeSchedule(postedSpeedsOn: graph),
                configuration: DispatchConfiguration(), settings: desk,
                router: router, bus: try await transport.socket(.pub), speed: 1)
            let serving = Task { try await server.run() }
            func at(_ node: Int) -> LatLon {
                LatLon.with {
                    $0.lat = graph.positions[node].lat; $0.lon = graph.positions[node].lon
                }
            }

            // A generous timeout: on a loaded machine a slow reply must not count as lost here.
            var settings = SessionClient.Settings()
            settings.timeout = .seconds(10)
            let client = SessionClient(transport: transport, endpoint: endpoint, hello: Self.hello, settings: settings)
            let welcome = try await client.connect()
            #expect(welcome.sessionID == "drivers-1")
            let quote = try await client.request(
                .quoteRequest(
                    QuoteRequest.with {
                        $0.riderID = "r"; $0.pickup = at(0); $0.dropoff = at(40)
                    }))
            #expect(quote.quote.distanceM == 2_000)
            try await client.send(
                .driverOnline(
                    DriverOnline.with {
                        $0.driverID = "d-1"; $0.location = at(1)
                    }))
            _ = try await client.request(
                .rideRequest(
                    Wire.RideRequest.with {
                        $0.requestID = "q"; $0.riderID = "r"; $0.pickup = at(2); $0.dropoff = at(40)
                    }))
            var offer: Wire.Offer?
            for await message in client.incoming {
                if case .offer(let received)? = message.body { offer = received; break }
            }
            #expect(offer?.driverID == "d-1")
            #expect(await client.reconnects == 0)
            await client.close()
            await server.stop()
            try await serving.value
            await transport.shutdown()
        }
    }

    @Test("A request left unanswered is sent again on a new socket, after a new Hello, with the same message id")
    func lazyPirate() async throws {
        try await within(20) {
            let transport = try Transport(name: "pirate-test")
            let router = try await transport.socket(.router)
            let endpoint = try await router.bind("inproc://lossy-\(UInt32.random(in: 0...UInt32.max))")
            // A dispatch that loses the first copy of every request (as a crashed-and-restarted one would).
            let lossy = Task {
                var seen: [String] = []
                var log: [String] = []
                while !Task.isCancelled {
                    guard let message = try? await router.receive(), let request = try? Frames.Routed(frames: message.frames)
                    else { return log }
                    let id = request.envelope.messageID
                    log.append(request.envelope.bodyName + " " + id)
                    if !seen.contains(id) { seen.append(id); continue }
                    let body: Envelope.OneOf_Body =
                        if case .hello? = request.envelope.body {
                            .welcome(Welcome.with { $0.sessionID = "drivers-1" })
                        } else {
                            .requestReceived(RequestReceived.with { $0.requestID = "q" })
                        }
                    var stamper = SequenceStamper(sender: "lossy")
                    let reply = Envelope(body, from: stamper.next(), inReplyTo: id)
                    try? await router.send(Message(Frames.Routed(peer: request.peer, envelope: reply).frames))
                    if log.count >= 6 { return log }
                }
                return log
            }
            var settings = SessionClient.Settings()
            settings.timeout = .milliseconds(200)
            settings.attempts = 3
            let client = SessionClient(transport: transport, endpoint: endpoint, hello: Self.hello, settings: settings)
            try await client.connect()
            let reply = try await client.request(.rideRequest(Wire.RideRequest.with { $0.requestID = "q" }))
            #expect(reply.requestReceived.requestID == "q")
            // At least one new socket for the Hello and one for the request (more if a slow machine
            // let a reply miss its 200 ms).
            #expect(await client.reconnects >= 2)
            lossy.cancel()
            await router.close()
            let log = await lossy.value
            let requests = log.filter { $0.hasPrefix("rideRequest") }
            #expect(
                requests.count >= 2 && Set(requests).count == 1, "every copy of the request carries its first message id: \(log)")
            await client.close()
            await transport.shutdown()
        }
    }

    @Test(
        "Dispatch killed and restored from its journal (whole, or from a snapshot and what follows): the sessions say Hello again, a retried request is not done twice, what was missed comes again",
        arguments: [false, true])
    func dispatchRestored(fromSnapshot: Bool) async throws {
        try await within(60) {
            let transport = try Transport(name: "restore-test")
            let endpoint = "inproc://restored-\(UInt32.random(in: 0...UInt32.max))"
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "dispatch-\(UUID().uuidString.prefix(8)).journal"
            ).path
            defer {
                try? FileManager.default.removeItem(atPath: path)
                for file in SnapshotStore(journalPath: path).files() { try? FileManager.default.removeItem(atPath: file.path) }
            }
            let graph = GridCity(width: 2_000, height: 2_000, blockLength: 250, speedKmh: 36).build()
            func at(_ node: Int) -> LatLon {
                LatLon.with {
                    $0.lat = graph.positions[node].lat; $0.lon = graph.positions[node].lon
                }
            }
            var desk = DispatchDesk.Settings()
            desk.sessionTimeoutMs = 120_000
            func dispatch(continuing contents: DispatchJournal.Contents?, origin: Int64?) async throws -> (DispatchServer, Socket)
            {
                let journal = try DispatchJournal(path: path, continuing: contents)
                var options = SocketOptions()
                options.routerMandatory = true
                // Killed, it keeps nothing back: the endpoint is free for the next one at once.
                options.linger = .zero
                let router = try await transport.socket(.router, options: options)
                _ = try await router.bind(endpoint)
                let server = DispatchServer(
                    travel: TravelTimeSchedule(postedSpeedsOn: graph),
                    configuration: DispatchConfiguration(), settings: desk,
                    router: router, bus: try await transport.socket(.pub), speed: 1, journal: journal, wallOriginMs: origin,
                    snapshots: fromSnapshot ? SnapshotPolicy(everyEntries: 1, minimumGap: .zero) : nil)
                return (server, router)
            }
            let (first, firstRouter) = try await dispatch(continuing: nil, origin: nil)
            let firstRun = Task { try await first.run() }
            var settings = SessionClient.Settings()
            settings.timeout = .seconds(2)
            let driver = SessionClient(transport: transport, endpoint: endpoint, hello: Self.hello, settings: settings)
            let rider = SessionClient(
                transport: transport, endpoint: endpoint,
                hello: Hello.with {
                    $0.role = .riders; $0.sessionID = "riders-1"
                }, settings: settings)
            try await driver.connect()
            try await rider.connect()
            _ = try await driver.request(
                .driverOnline(
                    DriverOnline.with {
                        $0.driverID = "d-1"; $0.location = at(1)
                    }))
            let ride = Wire.RideRequest.with {
                $0.requestID = "q"; $0.riderID = "q"; $0.pickup = at(2); $0.dropoff = at(40)
            }
            #expect(try await rider.request(.rideRequest(ride)).requestReceived.requestID == "q")
            var offers = driver.incoming.makeAsyncIterator()
            let offer = try #require(await offers.next()).offer
            #expect(
                try await driver.request(
                    .acceptOffer(
                        AcceptOffer.with {
                            $0.offerID = offer.offerID; $0.driverID = "d-1"
                        })
                ).body == .ack(Ack()))

            var updates = rider.incoming.makeAsyncIterator()
            #expect(try #require(await updates.next()).tripUpdate.state == .driverAssigned)

            // Dispatch dies (its sockets go with it); a new one restores the run from the journal.
            if fromSnapshot {
                // Snapshots are written off dispatch's actor: one of the ride's state, at least.
                while await first.snapshotsWritten.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
            }
            await first.stop()
            firstRun.cancel()
            _ = try? await firstRun.value
            // libzmq frees a closed socket's inproc name later, on its reaper thread (a loaded machine
            // saw the rebind below refused as in use): unbinding frees it at once.
            try await firstRouter.unbind(endpoint)
            await firstRouter.close()
            let contents = try DispatchJournal.read(path: path)
            guard case .started(let origin, _)? = contents.first else { Issue.record("no clock in the journal"); return }
            let (second, _) = try await dispatch(continuing: contents, origin: origin)
            let recovery = try await second.restore(from: contents)
            #expect(recovery.requests == 1 && recovery.sessions == 2)
            #expect((recovery.snapshot != nil) == fromSnapshot && recovery.skippedSnapshots.isEmpty)
            if fromSnapshot { #expect(recovery.replayed < recovery.entries) }
            let secondRun = Task { try await second.run() }

            // The rider's process did not hear back about its request and sends it again.
            #expect(try await rider.request(.rideRequest(ride)).requestReceived.requestID == "q")
            #expect(await rider.rehellos + rider.reconnects >= 1)
            let update = try #require(await updates.next()).tripUpdate
            #expect(
                update.requestID == "q" && update.state == .driverAssigned, "the last trip update, sent again after the Hello")
            #expect(await second.published[.requestCreated] == 1, "the request is not taken twice")
            await driver.close()
            await rider.close()
            await second.stop()
            _ = try? await secondRun.value
            await transport.shutdown()
        }
    }

    @Test("Requests in flight when dispatch forgets the session say Hello once between them, then go again")
    func oneHelloAfterRestart() async throws {
        try await within(20) {
            let transport = try Transport(name: "forgetful-test")
            let router = try await transport.socket(.router)
            let endpoint = try await router.bind("inproc://forgetful-\(UInt32.random(in: 0...UInt32.max))")
            let requests = 40
            // A dispatch that welcomes the first Hello, then forgets the session (a restart) until
            // the next Hello: it holds the requests until all have come, to answer them together.
            let forgetful = Task {
                var stamper = SequenceStamper(sender: "forgetful")
                var hellos = 0
                var held: [Frames.Routed] = []
                var answered = 0
                func answer(_ request: Frames.Routed, _ body: Envelope.OneOf_Body) async {
                    let reply = Envelope(body, from: stamper.next(), inReplyTo: request.envelope.messageID)
                    try? await router.send(Message(Frames.Routed(peer: request.peer, envelope: reply).frames))
                }
                while answered < requests {
                    guard let message = try? await router.receive(), let request = try? Frames.Routed(frames: message.frames)
                    else { break }
                    if case .hello? = request.envelope.body {
                        hellos += 1
                        await answer(request, .welcome(Welcome.with { $0.sessionID = "drivers-1" }))
                    } else if hellos < 2 {
                        held.append(request)
                        if held.count == requests {
                            for request in held { await answer(request, .error(ErrorReply.with { $0.code = .unknownSession })) }
                            held = []
                        }
                    } else {
                        answered += 1
                        await answer(request, .ack(Ack()))
                    }
                }
                return hellos
            }
            var settings = SessionClient.Settings()
            settings.timeout = .seconds(5)
            let client = SessionClient(transport: transport, endpoint: endpoint, hello: Self.hello, settings: settings)
            try await client.connect()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<requests {
                    group.addTask {
                        let reply = try await client.request(
                            .legDone(
                                LegDone.with {
                                    $0.driverID = "d-\(index)"; $0.leg = 1
                                }))
                        #expect(reply.body == .ack(Ack()))
                    }
                }
                try await group.waitForAll()
            }
            #expect(await forgetful.value == 2, "the first Hello and one more for all \(requests) requests")
            await client.close()
            await router.close()
            await transport.shutdown()
        }
    }

    @Test("Nobody answering is an error naming the request, after every attempt")
    func unanswered() async throws {
        try await within(20) {
            let transport = try Transport(name: "silent-test")
            let router = try await transport.socket(.router)
            let endpoint = try await router.bind("inproc://silent-\(UInt32.random(in: 0...UInt32.max))")
            var settings = SessionClient.Settings()
            settings.timeout = .milliseconds(100)
            settings.attempts = 2
            let client = SessionClient(transport: transport, endpoint: endpoint, hello: Self.hello, settings: settings)
            let error = await #expect(throws: SessionClient.Failure.self) { try await client.connect() }
            #expect(error == .unanswered(messageID: "drivers-1:1", attempts: 2))
            await client.close()
            await router.close()
            await transport.shutdown()
        }
    }
}
