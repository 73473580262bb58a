import Foundation
import Randomness
import Wire
import ZeroMQ

/// A hostile client with a session of its own (in a real deployment: a valid key, the wrong
/// owner): it learns real riders, drivers and requests from the bus and sends commands in their
/// name — take a driver offline, cancel or steal a ride, accept another driver's offer, stop
/// dispatch. Every one must be refused; it counts what dispatch answered. Over CURVE it also
/// publishes on the bus what only others may (dispatch's events, dispatch's status, window
/// openings, another's readiness): the bus must forward none of it. Sharded, it holds a session
/// at every shard and sends each forgery to one drawn at random.
struct Forger {
    /// The name its key is made under in a CURVE run.
    static let keyName = "forger"
    /// The sender of its publications, so that one that got through is found in the recording.
    static let busSender = "forger-bus"

    /// Every dispatch shard's sessions endpoint (one, unsharded).
    let sessions: [String]
    let bus: String
    /// Where to publish forgeries (nil: not at all).
    let busPublish: String?
    let perSecond: Double
    var random: SeededGenerator

    /// What the forger saw of its forgeries.
    struct Tally: Sendable {
        var sent = 0
        /// Answered FORBIDDEN.
        var refused = 0
        /// Answered with an acknowledgement or a result: a forgery that took effect.
        var applied = 0
        /// The first forgery that took effect, in words.
        var firstApplied: String?
        /// Forged publications sent to the bus.
        var published = 0
    }

    /// Forges until cancelled.
    mutating func run(on transport: Transport) async -> Tally {
        var tally = Tally()
        guard perSecond > 0, !sessions.isEmpty,
            let watch = try? await transport.socket(.sub, options: .subscribing(to: [Topic.dispatch]))
        else { return tally }
        var dealers: [Socket] = []
        defer {
            Task { [dealers] in
                for dealer in dealers { await dealer.close() }
                await watch.close()
            }
        }
        for endpoint in sessions {
            guard let dealer = try? await transport.socket(.dealer), (try? await dealer.connect(endpoint)) != nil else {
                return tally
            }
            dealers.append(dealer)
        }
        guard (try? await watch.connect(bus)) != nil else { return tally }
        var publisher: Socket?
        if let busPublish, let socket = try? await transport.socket(.pub, options: .eventBus) {
            if (try? await socket.connect(busPublish)) != nil { publisher = socket }
        }
        defer { if let publisher { Task { await publisher.close() } } }
        var busStamper = SequenceStamper(sender: Self.busSender)
        var stamper = SequenceStamper(sender: "forger")
        let hello = Hello.with {
            // The role its key carries over CURVE (a tool): the Hello is taken, the forgeries not.
            $0.role = .tool
            $0.sessionID = "forger"
            $0.process = "forger"
            $0.sessionToken = SessionToken.draw()
        }
        // Forgeries awaiting an answer (the oldest forgotten: an answer lost to a fault never comes).
        var sentKinds: [String: String] = [:]
        var sentOrder: [String] = []
        var seen = Seen()
        var nextHello = ContinuousClock.now
        var nextForgery = ContinuousClock.now
        while !Task.isCancelled {
            // Hello now and then: a restarted dispatch has forgotten the forger's session.
            if ContinuousClock.now >= nextHello {
                nextHello = .now + .seconds(2)
                for dealer in dealers {
                    _ = try? await dealer.send(Message([WireCodec.encode(Envelope(.hello(hello), from: stamper.next()))]))
                }
            }
            let sharded = dealers.count > 1
            let shard = sharded && ContinuousClock.now >= nextForgery ? Int(random.next() % UInt64(dealers.count)) : 0
            if ContinuousClock.now >= nextForgery,
                let (name, body) = seen.forgery(&random, offerPrefix: WireIDs.offerPrefix(shard: sharded ? shard : nil))
            {
                nextForgery = .now + .seconds(1 / perSecond)
                let envelope = Envelope(body, from: stamper.next())
                sentKinds[envelope.messageID] = name
                sentOrder.append(envelope.messageID)
                if sentOrder.count > 1_000 {
                    for id in sentOrder.prefix(500) { sentKinds[id] = nil }
                    sentOrder.removeFirst(500)
                }
                guard (try? await dealers[shard].send(Message([WireCodec.encode(envelope)]))) != nil else { break }
                tally.sent += 1
                if let publisher {
                    let (topic, body) = seen.publication(&random)
                    let published = Frames.Published(topic: topic, envelope: Envelope(body, from: busStamper.next()))
                    if (try? await publisher.send(Message(published.frames))) != nil { tally.published += 1 }
                }
            }
            for batch in await Self.waiting(on: watch) {
                if let event = try? Frames.Published(frames: batch.frames).envelope.dispatchEvent { seen.note(event) }
            }
            for dealer in dealers {
                for batch in await Self.waiting(on: dealer) {
                    guard let reply = try? Frames.direct(batch.frames), let name = sentKinds.removeValue(forKey: reply.inReplyTo)
                    else { continue }
                    switch reply.body {
                    case .error(let error)? where error.code == .forbidden: tally.refused += 1
                    // refused for another reason (unknown, invalid, another shard's): not applied either
                    case .error?: break
                    default:
                        tally.applied += 1
                        if tally.firstApplied == nil { tally.firstApplied = "\(name) was answered \(reply.bodyName)" }
                    }
                }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return tally
    }

    /// What has arrived on `socket` without waiting.
    private static func waiting(on socket: Socket) async -> [Message] {
        (try? await withThrowingTaskGroup(of: [Message]?.self) { group in
            group.addTask { try await socket.batches(limit: 256).first { _ in true } }
            group.addTask {
                try await Task.sleep(for: .milliseconds(1))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }) ?? []
    }

    /// Real ids from the bus, to forge with.
    struct Seen {
        var drivers: [String] = []
        var requests: [(request: String, rider: String)] = []

        mutating func note(_ event: Wire.DispatchEvent) {
            if !event.driverID.isEmpty, !drivers.contains(event.driverID) { drivers.append(event.driverID) }
            if !event.requestID.isEmpty, !event.riderID.isEmpty, !requests.contains(where: { $0.request == event.requestID }) {
                requests.append((event.requestID, event.riderID))
            }
            if drivers.count > 200 { drivers.removeFirst(100) }
            if requests.count > 200 { requests.removeFirst(100) }
        }

        /// A publication only another process may make, with ids seen so far.
        func publication(_ random: inout SeededGenerator) -> (topic: String, body: Envelope.OneOf_Body) {
            let request = requests.randomElement(using: &random)
            let all: [(String, Envelope.OneOf_Body)] = [
                (
                    Topic.dispatchRequest,
                    .dispatchEvent(
                        Wire.DispatchEvent.with {
                            $0.kind = .requestCancelled; $0.requestID = request?.request ?? "rider-1"
                            $0.riderID = request?.rider ?? "rider-1"
                        })
                ),
                (
                    Topic.status(of: "dispatch"),
                    .processStatus(
                        ProcessStatus.with {
                            $0.role = .dispatch; $0.processID = "dispatch"; $0.lagMs = 918_800
                        })
                ),
                (
                    Topic.status(of: keyName),
                    .processStatus(
                        ProcessStatus.with {
                            $0.role = .dispatch; $0.processID = "dispatch"; $0.lagMs = 918_800
                        })
                ),
                (Topic.windowOpen, .windowOpen(WindowOpen.with { $0.window = 1 })),
                (
                    Topic.ready,
                    .ready(
                        Ready.with {
                            $0.role = .dispatch; $0.processID = "dispatch"
                        })
                ),
            ]
            return all.randomElement(using: &random)!
        }

        /// A forgery with ids seen so far (nil until there are some); `offerPrefix` is how the
        /// receiving dispatch names its offers.
        func forgery(_ random: inout SeededGenerator, offerPrefix: String) -> (String, Envelope.OneOf_Body)? {
            guard let driver = drivers.randomElement(using: &random),
                let (request, rider) = requests.randomElement(using: &random)
            else { return nil }
            // Offers are not on the bus; their names are easy to guess.
            let offer = "\(offerPrefix)\(Int(random.next() % UInt64(max(1, requests.count))) + 1)"
            let place = LatLon.with {
                $0.lat = 0
                $0.lon = 0
            }
            let all: [(String, Envelope.OneOf_Body)] = [
                ("DriverOffline for \(driver)", .driverOffline(DriverOffline.with { $0.driverID = driver })),
                (
                    "DriverOnline as \(driver)",
                    .driverOnline(
                        DriverOnline.with {
                            $0.driverID = driver; $0.location = place
                        })
                ),
                (
                    "LocationUpdate for \(driver)",
                    .locationUpdate(
                        LocationUpdate.with {
                            $0.driverID = driver; $0.location = place
                        })
                ),
                (
                    "LegDone for \(driver)",
                    .legDone(
                        LegDone.with {
                            $0.driverID = driver; $0.leg = 1
                        })
                ),
                (
                    "CancelRide of \(request)",
                    .cancelRide(
                        CancelRide.with {
                            $0.requestID = request; $0.riderID = rider
                        })
                ),
                (
                    "RateTrip of \(request)",
                    .rateTrip(
                        RateTrip.with {
                            $0.tripID = WireIDs.trip(ofRequest: request); $0.riderID = rider; $0.stars = 1
                        })
                ),
                (
                    "RideRequest as \(rider)",
                    .rideRequest(
                        Wire.RideRequest.with {
                            $0.requestID = "forged-\(request)"; $0.riderID = rider; $0.pickup = place; $0.dropoff = place
                        })
                ),
                (
                    "RideRequest under \(request)",
                    .rideRequest(
                        Wire.RideRequest.with {
                            $0.requestID = request; $0.riderID = "forger-rider"; $0.pickup = place; $0.dropoff = place
                        })
                ),
                (
                    "AcceptOffer of \(offer) for \(driver)",
                    .acceptOffer(
                        AcceptOffer.with {
                            $0.offerID = offer; $0.driverID = driver
                        })
                ),
                ("Stop", .stop(Stop.with { $0.reason = "forged" })),
                ("SnapshotRequest", .snapshotRequest(SnapshotRequest())),
            ]
            return all.randomElement(using: &random)
        }
    }
}
