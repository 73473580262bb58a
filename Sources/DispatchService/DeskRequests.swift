import City
import RideDispatch
import Wire

extension DispatchDesk {
    /// One request from a known session; the direct replies (engine events are added after).
    func handle(_ envelope: Envelope, session: String, peer: [UInt8], at time: Double) throws(DeskFailure) -> [Outgoing] {
        func reply(_ body: Envelope.OneOf_Body) -> [Outgoing] { [.toPeer(peer: peer, body: body, inReplyTo: envelope.messageID)] }
        // Commands with no other answer are acknowledged, so that a lost one can be sent again.
        var acknowledged: [Outgoing] { reply(.ack(Ack())) }
        switch envelope.body {
        case .heartbeat?:
            return []
        case .goodbye?:
            return close(session, at: time, expired: false)
        case .quoteRequest(let request)?:
            let origin = try node(request.pickup, "pickup"), destination = try node(request.dropoff, "dropoff")
            guard let quote = engine.quote(from: origin, to: destination, product: WireMapping.product(request.product), now: time) else {
                throw DeskFailure(code: .invalidState, reason: "no road leads from the pickup to the dropoff")
            }
            quotes += 1
            return reply(.quote(Wire.Quote.with {
                $0.quoteID = "quote-\(quotes)"
                $0.riderID = request.riderID
                $0.product = request.product
                $0.priceCents = Int64(quote.priceCents)
                $0.surgeMultiplier = quote.surge
                $0.pickupEtaS = UInt32((quote.pickupETA ?? 0).rounded())
                $0.tripDurationS = UInt32(quote.tripSeconds.rounded())
                $0.distanceM = UInt32(quote.tripMetres.rounded())
                $0.expiresAtMs = WireMapping.milliseconds(time + 300)
            }))
        case .rideRequest(let ride)?:
            guard !ride.requestID.isEmpty, !ride.riderID.isEmpty else {
                throw DeskFailure(code: .malformed, reason: "RideRequest needs request_id and rider_id")
            }
            sessions[session]?.riders.insert(ride.riderID)
            sessionOfRider[ride.riderID] = session
            let received = reply(.requestReceived(RequestReceived.with { $0.requestID = ride.requestID }))
            // Asked again under a new message id (a retry, or a rider who has heard nothing for a
            // while): acknowledged, not done twice, and told where the ride stands.
            if requestIDs[ride.requestID] != nil {
                return received + (lastToRider[ride.riderID].map { [.toPeer(peer: peer, body: .tripUpdate($0), inReplyTo: "")] } ?? [])
            }
            let origin = try node(ride.pickup, "pickup"), destination = try node(ride.dropoff, "dropoff")
            let id = RequestID(requestIDs.count + 1)
            let pickupAt = ride.scheduledPickupMs > 0 ? Double(ride.scheduledPickupMs) / 1000 : nil
            do {
                try engine.submit(RideDispatch.RideRequest(id: id, rider: 0, origin: origin, destination: destination,
                                                           product: WireMapping.product(ride.product), pickupAt: pickupAt), now: time)
            } catch {
                throw DeskFailure(code: .invalidState, reason: error.reason)
            }
            requestIDs[ride.requestID] = id
            requestNames[id] = ride.requestID
            riderOfRequest[id] = ride.riderID
            return received
        case .cancelRide(let cancel)?:
            guard let id = requestIDs[cancel.requestID] else { throw DeskFailure(code: .unknownRequest, reason: "no request \(cancel.requestID)") }
            try refuse { () throws(DispatchRefusal) in
                try engine.cancel(id, by: .rider, reason: cancel.reason.isEmpty ? "cancelled by the rider" : cancel.reason, now: time)
            }
            return acknowledged
        case .rateTrip?:
            return acknowledged
        case .driverOnline(let online)?:
            guard !online.driverID.isEmpty else { throw DeskFailure(code: .malformed, reason: "DriverOnline needs driver_id") }
            let at = try node(online.location, "location")
            let driver = driverIDs[online.driverID] ?? {
                let id = DriverID(driverIDs.count + 1)
                driverIDs[online.driverID] = id
                driverNames[id] = online.driverID
                return id
            }()
            if let previous = sessionOfDriver[online.driverID], previous != session {
                // The driver's app came back on another session (its process restarted): the old
                // session lets go of it, and whatever it was doing there is matched again.
                sessions[previous]?.drivers.remove(online.driverID)
                if engine.state(of: driver) != .offline { try? engine.driverOffline(driver, now: time) }
            }
            sessions[session]?.drivers.insert(online.driverID)
            sessionOfDriver[online.driverID] = session
            lastLocation[online.driverID] = online.location
            // Coming online starts afresh: legs from before (another session, a restarted app) are void.
            lastLegTo[online.driverID] = nil
            try refuse { () throws(DispatchRefusal) in try engine.driverOnline(driver, at: at, now: time) }
            return acknowledged
        case .driverOffline(let offline)?:
            let driver = try knownDriver(offline.driverID)
            try refuse { () throws(DispatchRefusal) in try engine.driverOffline(driver, now: time) }
            return acknowledged
        case .locationUpdate(let update)?:
            // Positions follow from the legs dispatch hands out; updates are for the map.
            if driverIDs[update.driverID] != nil { lastLocation[update.driverID] = update.location }
            return []
        case .acceptOffer(let answer)?:
            try respond(offer: answer.offerID, driver: answer.driverID, accept: true, at: time)
            return acknowledged
        case .declineOffer(let answer)?:
            try respond(offer: answer.offerID, driver: answer.driverID, accept: false, at: time)
            return acknowledged
        case .legDone(let done)?:
            let driver = try knownDriver(done.driverID)
            try refuse { () throws(DispatchRefusal) in try engine.arrived(driver: driver, leg: Int(done.leg), now: time) }
            return acknowledged
        case .snapshotRequest?:
            // The server answers snapshots itself: it knows the bus sequence they are current to.
            return []
        default:
            throw DeskFailure(code: .invalidState, reason: "dispatch does not serve \(envelope.bodyName)")
        }
    }

    private func respond(offer: String, driver name: String, accept: Bool, at time: Double) throws(DeskFailure) {
        guard let entry = offers[offer], driverNames[entry.driver] == name else {
            throw DeskFailure(code: .unknownRequest, reason: "no open offer \(offer) for \(name)")
        }
        try refuse { () throws(DispatchRefusal) in try engine.respond(driver: entry.driver, to: entry.request, accept: accept, now: time) }
    }

    private func knownDriver(_ name: String) throws(DeskFailure) -> DriverID {
        guard let driver = driverIDs[name] else { throw DeskFailure(code: .unknownRequest, reason: "no driver \(name) has been online") }
        return driver
    }

    /// The road node nearest to a position, or a failure naming the field.
    func node(_ position: LatLon, _ field: String) throws(DeskFailure) -> Int {
        guard position.lat.isFinite, position.lon.isFinite, (-90...90).contains(position.lat), (-180...180).contains(position.lon) else {
            throw DeskFailure(code: .malformed, reason: "\(field) is not a position")
        }
        let nearest = snap.nearestNode(to: GeoPoint(position))
        guard nearest.distance <= settings.maxSnapMetres else {
            throw DeskFailure(code: .invalidState, reason: "\(field) is \(Int(nearest.distance)) m from the nearest road of this city")
        }
        return nearest.node
    }

    private func refuse(_ command: () throws(DispatchRefusal) -> Void) throws(DeskFailure) {
        do { try command() } catch { throw DeskFailure(code: .invalidState, reason: error.reason) }
    }
}
