import City
import RideDispatch
import SimulatedTime
import Wire

extension DispatchDesk {
    /// What the engine's events mean for riders, drivers and the bus.
    func translate(_ events: [TimedDispatchEvent]) -> [Outgoing] {
        var out: [Outgoing] = []
        translate(events, into: &out)
        return out
    }

    /// What the engine's events mean, appended to `out`: every message of the translation is
    /// built once into the one array (concatenating each event's own arrays copied every message
    /// two or three times; building them in place took 3.5 % off dispatch's instructions on metro).
    func translate(_ events: [TimedDispatchEvent], into out: inout [Outgoing]) {
        checker.record(events)
        for timed in events {
            odometers.record(timed)
            translate(timed, into: &out)
        }
    }

    /// The surge zone of a road node, as the wire names it.
    private func zone(of node: Int) -> String { WireIDs.zone(engine.zones.zone(of: node)) }

    private func translate(_ timed: TimedDispatchEvent, into out: inout [Outgoing]) {
        switch timed.event {
        case .requested(let id, let request, let quote): out.append(requested(id, request, quote))
        case .scheduled: break
        case .offered(let id, let driver, let expires, let pickupSeconds):
            offered(id, to: driver, expires: expires, pickupSeconds: pickupSeconds, into: &out)
        case .declined(let id, let driver, let timedOut): out.append(declined(id, by: driver, timedOut: timedOut))
        case .matched(let id, let driver, let pickupSeconds): matched(id, with: driver, pickupSeconds: pickupSeconds, into: &out)
        case .requeued(let id, let driver, let reason): requeued(id, from: driver, reason: reason, into: &out)
        case .drive(let driver, let leg):
            toDriver(driver, drive(driver, leg), into: &out)
            out.append(legStarted(driver, leg))
            if let stop = leg.stop { out += sharedUpdates(of: stop.request) }
        case .legCancelled(let driver, let leg):
            toDriver(driver, legCancelled(driver, leg), into: &out)
            out.append(bus(Topic.dispatchDriver, .legStopped, driver: driver))
        case .pickedUp(let id, let driver): pickedUp(id, by: driver, at: timed.time, into: &out)
        case .finished(let id, let outcome, let driver): finished(id, outcome, driver: driver, at: timed.time, into: &out)
        case .handedOut(let id, let shard):
            out.append(bus(Topic.dispatchRequest, .requestHandedOver, request: id) { $0.shard = UInt32(shard) })
        case .driverState(let driver, let state): out.append(driverState(driver, state))
        case .surge(let zone, let multiplier): out.append(surge(zone, multiplier))
        }
    }

    private func requested(_ id: RequestID, _ request: RideDispatch.RideRequest, _ quote: RideDispatch.Quote) -> Outgoing {
        bus(Topic.dispatchRequest, .requestCreated, request: id) {
            $0.location = LatLon(self.engine.graph.positions[request.origin])
            $0.zone = zone(of: request.origin)
            $0.dropoff = LatLon(self.engine.graph.positions[request.destination])
            $0.dropoffZone = zone(of: request.destination)
            $0.product = WireMapping.product(request.product)
            $0.tripMetres = UInt32(clamping: Int(quote.tripMetres.rounded()))
            $0.fareCents = Int64(quote.priceCents)
            $0.surgeMultiplier = quote.surge
        }
    }

    private func offered(
        _ id: RequestID, to driver: DriverID, expires: Double, pickupSeconds: Double, into out: inout [Outgoing]
    ) {
        let name = offers.make(id, to: driver, prefix: WireIDs.offerPrefix(shard: settings.shard?.index))
        if let request = engine.request(id) {
            let offer = Wire.Offer.with {
                $0.offerID = name
                $0.requestID = requests.name(of: id) ?? ""
                $0.driverID = drivers.name(of: driver) ?? ""
                $0.pickup = LatLon(engine.graph.positions[request.origin])
                $0.dropoff = LatLon(engine.graph.positions[request.destination])
                $0.product = WireMapping.product(request.product)
                $0.pickupEtaS = UInt32(pickupSeconds.rounded())
                $0.expiresAtMs = SimTime(seconds: expires).wireMilliseconds
            }
            toDriver(driver, .offer(offer), into: &out)
        }
        out.append(bus(Topic.dispatchRequest, .offerSent, request: id, driver: driver))
    }

    private func declined(_ id: RequestID, by driver: DriverID, timedOut: Bool) -> Outgoing {
        offers.close(id, driver: driver)
        return bus(Topic.dispatchRequest, timedOut ? .offerExpired : .offerDeclined, request: id, driver: driver)
    }

    private func matched(_ id: RequestID, with driver: DriverID, pickupSeconds: Double, into out: inout [Outgoing]) {
        offers.closeAll(of: id)
        toRider(id, state: .driverAssigned, driver: driver, into: &out) { $0.pickupEtaS = UInt32(pickupSeconds.rounded()) }
        out.append(bus(Topic.dispatchRequest, .offerAccepted, request: id, driver: driver))
    }

    private func requeued(_ id: RequestID, from driver: DriverID, reason: String, into out: inout [Outgoing]) {
        toRider(id, state: .matching, driver: nil, into: &out) { $0.reason = reason }
        out.append(bus(Topic.dispatchRequest, .offerDeclined, request: id, driver: driver) { $0.reason = reason })
    }

    private func drive(_ driver: DriverID, _ leg: Leg) -> Envelope.OneOf_Body {
        .driveTo(
            DriveTo.with {
                $0.driverID = drivers.name(of: driver) ?? ""
                $0.leg = UInt32(leg.number)
                $0.stop =
                    switch leg.stop?.kind {
                    case .pickup?: .pickup
                    case .dropoff?: .dropoff
                    case nil: .reposition
                    }
                $0.requestID = leg.stop.flatMap { requests.name(of: $0.request) } ?? ""
                if let last = leg.timeline.route.nodes.last { $0.destination = LatLon(engine.graph.positions[last]) }
                $0.routeNodes = leg.timeline.route.nodes.map { UInt32($0) }
                $0.departAtMs = SimTime(seconds: leg.timeline.departure).wireMilliseconds
                $0.arriveAtMs = SimTime(seconds: leg.timeline.arrival).wireMilliseconds
            })
    }

    /// The leg on the bus, as its driver is told it (the web monitor moves the car along it).
    private func legStarted(_ driver: DriverID, _ leg: Leg) -> Outgoing {
        bus(Topic.dispatchDriver, .legStarted, request: leg.stop?.request, driver: driver) {
            $0.routeNodes = leg.timeline.route.nodes.map { UInt32($0) }
            $0.departAtMs = SimTime(seconds: leg.timeline.departure).wireMilliseconds
            $0.arriveAtMs = SimTime(seconds: leg.timeline.arrival).wireMilliseconds
        }
    }

    private func legCancelled(_ driver: DriverID, _ leg: Int) -> Envelope.OneOf_Body {
        .driveTo(
            DriveTo.with {
                $0.driverID = drivers.name(of: driver) ?? ""
                $0.leg = UInt32(leg)
                $0.cancelled = true
            })
    }

    private func pickedUp(_ id: RequestID, by driver: DriverID, at time: Double, into out: inout [Outgoing]) {
        let waited = time - (engine.wantedFrom(id) ?? time)
        let pickup = engine.request(id).map(\.origin)
        // The driver is at the pickup (its leg there is done) and the rider gets in: the rider
        // hears both, as the protocol says, and the bus sees the arrival.
        toRider(id, state: .driverArrived, driver: driver, into: &out) { _ in }
        out.append(
            bus(Topic.dispatchRequest, .driverArrived, request: id, driver: driver) {
                $0.pickupWaitS = UInt32(max(0, waited).rounded())
                if let pickup { $0.zone = zone(of: pickup) }
            })
        toRider(id, state: .onTrip, driver: driver, into: &out) { _ in }
        out.append(
            bus(Topic.dispatchRequest, .tripStarted, request: id, driver: driver) {
                $0.pickupWaitS = UInt32(max(0, waited).rounded())
                if let pickup { $0.zone = zone(of: pickup) }
            })
    }

    private func finished(
        _ id: RequestID, _ outcome: RequestOutcome, driver: DriverID?, at time: Double, into out: inout [Outgoing]
    ) {
        offers.closeAll(of: id)
        // The rider's own update first: it also tells those the ride is shared with.
        ended(id, outcome, driver: driver, into: &out)
        guard case .completed(let fare) = outcome else {
            sharing.end(id)
            return
        }
        out += splitFare(of: id, fareCents: Int64(fare.riderPaysCents), at: time)
    }

    private func ended(_ id: RequestID, _ outcome: RequestOutcome, driver: DriverID?, into out: inout [Outgoing]) {
        switch outcome {
        case .completed(let fare):
            let paid = Int64(fare.riderPaysCents)
            let dropoff = engine.request(id).map(\.destination)
            toRider(id, state: .completed, driver: driver, into: &out) { $0.fareCents = paid }
            out.append(
                bus(Topic.dispatchRequest, .tripCompleted, request: id, driver: driver) {
                    $0.fareCents = paid
                    $0.driverEarnsCents = Int64(fare.driverEarnsCents)
                    if let dropoff {
                        $0.location = LatLon(engine.graph.positions[dropoff])
                        $0.zone = zone(of: dropoff)
                    }
                })
        case .cancelled(let party, let reason):
            toRider(id, state: .cancelled, driver: driver, into: &out) {
                $0.cancelledBy = WireMapping.party(party)
                $0.reason = reason
            }
            out.append(
                bus(Topic.dispatchRequest, .requestCancelled, request: id, driver: driver) {
                    $0.cancelledBy = WireMapping.party(party)
                    $0.reason = reason
                })
        case .rejected(let reason):
            toRider(id, state: .rejected, driver: nil, into: &out) { $0.reason = reason }
            out.append(bus(Topic.dispatchRequest, .requestRejected, request: id) { $0.reason = reason })
        }
    }

    private func driverState(_ driver: DriverID, _ state: RideDispatch.DriverState) -> Outgoing {
        bus(Topic.dispatchDriver, .driverStateChanged, driver: driver) { event in
            event.driverState = WireMapping.driverState(state)
            // Where its leg began or where it stands: state changes come at the ends of legs, so
            // this is where the car is (a location report would be up to one period old).
            if let node = engine.position(of: driver) {
                event.location = LatLon(engine.graph.positions[node])
                event.zone = zone(of: node)
            }
            let odometer = odometers[driver]
            event.emptyMetres = UInt32(clamping: Int(odometer.empty.rounded()))
            event.loadedMetres = UInt32(clamping: Int(odometer.loaded.rounded()))
        }
    }

    private func surge(_ zone: Int, _ multiplier: Double) -> Outgoing {
        .publish(
            topic: Topic.dispatchSurge,
            event: Wire.DispatchEvent.with {
                $0.kind = .surgeUpdated
                $0.zone = WireIDs.zone(zone)
                $0.surgeMultiplier = multiplier
            })
    }

    private func bus(
        _ topic: String, _ kind: DispatchEventKind, request: RequestID? = nil, driver: DriverID? = nil,
        _ fill: (inout Wire.DispatchEvent) -> Void = { _ in }
    ) -> Outgoing {
        var event = Wire.DispatchEvent.with {
            $0.kind = kind
            if let request, let name = requests.name(of: request) {
                $0.requestID = name
                $0.tripID = WireIDs.trip(ofRequest: name)
                $0.riderID = riderOfRequest[request] ?? ""
            }
            if let driver { $0.driverID = drivers.name(of: driver) ?? "" }
        }
        fill(&event)
        return .publish(topic: topic, event: event)
    }

    /// The rider's trip update (remembered for its next session), then those the ride is shared
    /// with, appended to `out`.
    private func toRider(
        _ id: RequestID, state: TripState, driver: DriverID?, into out: inout [Outgoing], _ fill: (inout TripUpdate) -> Void
    ) {
        guard let rider = riderOfRequest[id] else { return }
        let name = requests.name(of: id) ?? ""
        var update = TripUpdate.with {
            $0.requestID = name
            $0.tripID = WireIDs.trip(ofRequest: name)
            $0.state = state
            if let driver { $0.driverID = drivers.name(of: driver) ?? "" }
        }
        fill(&update)
        riderLines[rider, default: RiderLine()].lastUpdate = update
        let shared = sharedUpdates(of: id)
        if let peer = line(of: riderLines[rider]?.session) {
            out.append(.toPeer(peer: peer, body: .tripUpdate(update), inReplyTo: ""))
        }
        out += shared
    }

    /// A message for the driver's app (a leg remembered for its next session), appended to `out`.
    private func toDriver(_ driver: DriverID, _ body: Envelope.OneOf_Body, into out: inout [Outgoing]) {
        guard let name = drivers.name(of: driver) else { return }
        if case .driveTo(let drive) = body {
            driverLines[name, default: DriverLine()].lastLeg = drive
            if let due = legCheck(of: name) { legChecks.add(due, for: name) }
        }
        guard let peer = line(of: driverLines[name]?.session) else { return }
        out.append(.toPeer(peer: peer, body: body, inReplyTo: ""))
    }
}
