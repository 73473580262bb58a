import City
import RideDispatch
import SimulatedTime
import Wire

extension DispatchDesk {
    /// One request from a known session; the direct replies (engine events are added after).
    func handle(_ envelope: Envelope, session: String, peer: [UInt8], at time: Double) throws(DeskFailure) -> [Outgoing] {
        let reply = Reply(peer: peer, messageID: envelope.messageID)
        switch envelope.body {
        case .heartbeat?: return []
        case .goodbye?: return close(session, at: time, because: .saidGoodbye)
        case .quoteRequest(let request)?: return try quote(request, reply, at: time)
        case .rideRequest(let ride)?: return try request(ride, session: session, reply, at: time)
        case .cancelRide(let message)?: return try cancel(message, reply, at: time)
        case .rateTrip?: return reply.acknowledged
        case .shareEta(let message)?: return try share(message, reply, at: time)
        case .splitFareInvite(let message)?: return try invite(message, reply, at: time)
        case .splitAnswer(let message)?: return try answer(message, reply, at: time)
        case .driverOnline(let message)?: return try online(message, session: session, reply, at: time)
        case .driverOffline(let message)?: return try offline(message, reply, at: time)
        case .locationUpdate?, .locationReports?:
            // Positions follow from the legs dispatch hands out: a report, checked for its sender
            // (see DeskAuthority), changes nothing. It is the load a fleet's pings put on dispatch.
            return []
        case .acceptOffer(let answer)?:
            return try respond(offer: answer.offerID, driver: answer.driverID, accept: true, reply, at: time)
        case .declineOffer(let answer)?:
            return try respond(offer: answer.offerID, driver: answer.driverID, accept: false, reply, at: time)
        case .legDone(let done)?: return try legDone(done, reply, at: time)
        // The core builds snapshots itself: it knows the bus sequence they are current to.
        case .snapshotRequest?: return [.snapshot(peer: peer, inReplyTo: envelope.messageID)]
        case .stop?:
            stopRequested = true
            return reply.acknowledged
        default: throw DeskFailure(code: .invalidState, reason: "dispatch does not serve \(envelope.bodyName)")
        }
    }

    /// How to answer the request at hand.
    struct Reply {
        let peer: [UInt8]
        let messageID: String

        func with(_ body: Envelope.OneOf_Body) -> [Outgoing] { [.toPeer(peer: peer, body: body, inReplyTo: messageID)] }

        /// Commands with no other answer are acknowledged, so that a lost one can be sent again.
        var acknowledged: [Outgoing] { with(.ack(Ack())) }
    }

    private func quote(_ request: QuoteRequest, _ reply: Reply, at time: Double) throws(DeskFailure) -> [Outgoing] {
        let origin = try node(request.pickup, "pickup")
        try requireOwn(origin, "pickup")
        let destination = try node(request.dropoff, "dropoff")
        guard let quote = engine.quote(from: origin, to: destination, product: WireMapping.product(request.product), now: time)
        else {
            throw DeskFailure(code: .invalidState, reason: "no road leads from the pickup to the dropoff")
        }
        quotes += 1
        return reply.with(
            .quote(
                Wire.Quote.with {
                    $0.quoteID = "quote-\(quotes)"
                    $0.riderID = request.riderID
                    $0.product = request.product
                    $0.priceCents = Int64(quote.priceCents)
                    $0.surgeMultiplier = quote.surge
                    $0.pickupEtaS = UInt32((quote.pickupETA ?? 0).rounded())
                    $0.tripDurationS = UInt32(quote.tripSeconds.rounded())
                    $0.distanceM = UInt32(quote.tripMetres.rounded())
                    $0.expiresAtMs = SimTime(seconds: time + 300).wireMilliseconds
                }))
    }

    private func request(
        _ ride: Wire.RideRequest, session: String, _ reply: Reply, at time: Double
    ) throws(DeskFailure) -> [Outgoing] {
        guard !ride.requestID.isEmpty, !ride.riderID.isEmpty else {
            throw DeskFailure(code: .malformed, reason: "RideRequest needs request_id and rider_id")
        }
        // A new ride's pickup, found once; another shard's ride is refused before this one
        // remembers anything of it.
        let pickup = requests[ride.requestID] == nil ? try node(ride.pickup, "pickup") : nil
        if let pickup { try requireOwn(pickup, "pickup") }
        sessions[session]?.riders.insert(ride.riderID)
        riderLines[ride.riderID, default: RiderLine()].session = session
        let received = reply.with(.requestReceived(RequestReceived.with { $0.requestID = ride.requestID }))
        // Asked again under a new message id (a retry, or a rider who has heard nothing for a
        // while): acknowledged, not done twice, and told where the ride stands.
        if let known = requests[ride.requestID] {
            try requireNotHandedOut(known, ride.requestID)
            let standing = riderLines[ride.riderID]?.lastUpdate.map {
                Outgoing.toPeer(peer: reply.peer, body: .tripUpdate($0), inReplyTo: "")
            }
            return received + (standing.map { [$0] } ?? [])
        }
        let origin = if let pickup { pickup } else { try node(ride.pickup, "pickup") }
        let destination = try node(ride.dropoff, "dropoff")
        let pickupAt = ride.scheduledPickup?.seconds
        let id = requests.nextID
        try refuse { () throws(DispatchRefusal) in
            try engine.submit(
                RideDispatch.RideRequest(
                    id: id, rider: 0, origin: origin, destination: destination, product: WireMapping.product(ride.product),
                    pickupAt: pickupAt),
                now: time)
        }
        let named = requests.id(for: ride.requestID)
        assert(named == id, "the request was named with another id than it was submitted under")
        riderOfRequest[id] = ride.riderID
        return received + askAcross(for: id, at: time)
    }

    private func cancel(_ cancel: CancelRide, _ reply: Reply, at time: Double) throws(DeskFailure) -> [Outgoing] {
        guard let id = requests[cancel.requestID] else {
            throw DeskFailure(code: .unknownRequest, reason: "no request \(cancel.requestID)")
        }
        try requireNotHandedOut(id, cancel.requestID)
        let reason = cancel.reason.isEmpty ? "cancelled by the rider" : cancel.reason
        try refuse { () throws(DispatchRefusal) in try engine.cancel(id, by: .rider, reason: reason, now: time) }
        return reply.acknowledged + releaseEnded(at: time)
    }

    private func online(
        _ online: DriverOnline, session: String, _ reply: Reply, at time: Double
    ) throws(DeskFailure) -> [Outgoing] {
        guard !online.driverID.isEmpty else { throw DeskFailure(code: .malformed, reason: "DriverOnline needs driver_id") }
        let at = try node(online.location, "location")
        try requireOwn(at, "location")
        let driver = drivers.id(for: online.driverID)
        if let previous = driverLines[online.driverID]?.session, previous != session {
            // The driver's app came back on another session of the same principal (a tool's: a
            // host's new life has ended its old sessions at its Hello): the old session lets go
            // of it, and whatever it was doing there is matched again.
            sessions[previous]?.drivers.remove(online.driverID)
            takeOffline(driver, at: time)
        }
        sessions[session]?.drivers.insert(online.driverID)
        // Coming online starts afresh: legs from before (another session, a restarted app) are void.
        driverLines[online.driverID] = DriverLine(session: session)
        try refuse { () throws(DispatchRefusal) in
            try engine.driverOnline(driver, at: at, legsIssued: Int(online.legsIssued), now: time)
        }
        return reply.acknowledged
    }

    private func offline(_ offline: DriverOffline, _ reply: Reply, at time: Double) throws(DeskFailure) -> [Outgoing] {
        let driver = try knownDriver(offline.driverID)
        try refuse { () throws(DispatchRefusal) in try engine.driverOffline(driver, now: time) }
        return reply.acknowledged
    }

    private func respond(
        offer: String, driver name: String, accept: Bool, _ reply: Reply, at time: Double
    ) throws(DeskFailure) -> [Outgoing] {
        guard let entry = offers[offer], drivers.name(of: entry.driver) == name else {
            throw DeskFailure(code: .unknownRequest, reason: "no open offer \(offer) for \(name)")
        }
        try refuse { () throws(DispatchRefusal) in
            try engine.respond(driver: entry.driver, to: entry.request, accept: accept, now: time)
        }
        return reply.acknowledged
    }

    private func legDone(_ done: LegDone, _ reply: Reply, at time: Double) throws(DeskFailure) -> [Outgoing] {
        let driver = try knownDriver(done.driverID)
        try refuse { () throws(DispatchRefusal) in try engine.arrived(driver: driver, leg: Int(done.leg), now: time) }
        if let handover = handOverIfElsewhere(driver, named: done.driverID, at: time) {
            return reply.with(.ack(Ack.with { $0.handover = handover }))
        }
        return reply.acknowledged
    }

    private func knownDriver(_ name: String) throws(DeskFailure) -> DriverID {
        guard let driver = drivers[name] else {
            throw DeskFailure(code: .unknownRequest, reason: "no driver \(name) has been online")
        }
        return driver
    }

    /// The road node nearest to a position, or a failure naming the field.
    func node(_ position: LatLon, _ field: String) throws(DeskFailure) -> Int {
        guard position.lat.isFinite, position.lon.isFinite, (-90...90).contains(position.lat), (-180...180).contains(position.lon)
        else {
            throw DeskFailure(code: .malformed, reason: "\(field) is not a position")
        }
        let nearest = snapped.answer(GeoPoint(position)) { snap.nearestNode(to: $0) }
        guard nearest.distance <= settings.maxSnapMetres else {
            throw DeskFailure(
                code: .invalidState, reason: "\(field) is \(Int(nearest.distance)) m from the nearest road of this city")
        }
        return nearest.node
    }

    private func refuse(_ command: () throws(DispatchRefusal) -> Void) throws(DeskFailure) {
        do { try command() } catch { throw DeskFailure(code: .invalidState, reason: error.reason) }
    }
}
