import City
import RideDispatch
import Wire

extension DispatchDesk {
    /// What the engine's events mean for riders, drivers and the bus.
    func translate(_ events: [TimedDispatchEvent]) -> [Outgoing] {
        checker.record(events)
        var out: [Outgoing] = []
        for timed in events {
            switch timed.event {
            case .requested(let id, let request, let quote):
                out.append(bus(Topic.dispatchRequest, .requestCreated, request: id) {
                    $0.location = LatLon(self.engine.graph.positions[request.origin])
                    $0.fareCents = Int64(quote.priceCents)
                    $0.surgeMultiplier = quote.surge
                })
            case .scheduled:
                break
            case .offered(let id, let driver, let expires, let pickupSeconds):
                let name = "offer-\(offers.count + 1)"
                offers[name] = (id, driver)
                if let request = engine.request(id) {
                    out += toDriver(driver, .offer(Wire.Offer.with {
                        $0.offerID = name
                        $0.requestID = requestNames[id] ?? ""
                        $0.driverID = driverNames[driver] ?? ""
                        $0.pickup = LatLon(engine.graph.positions[request.origin])
                        $0.dropoff = LatLon(engine.graph.positions[request.destination])
                        $0.product = WireMapping.product(request.product)
                        $0.pickupEtaS = UInt32(pickupSeconds.rounded())
                        $0.expiresAtMs = WireMapping.milliseconds(expires)
                    }))
                }
                out.append(bus(Topic.dispatchRequest, .offerSent, request: id, driver: driver))
            case .declined(let id, let driver, let timedOut):
                offers = offers.filter { !($0.value.request == id && $0.value.driver == driver) }
                out.append(bus(Topic.dispatchRequest, timedOut ? .offerExpired : .offerDeclined, request: id, driver: driver))
            case .matched(let id, let driver, let pickupSeconds):
                offers = offers.filter { $0.value.request != id }
                out += toRider(id, state: .driverAssigned, driver: driver) { $0.pickupEtaS = UInt32(pickupSeconds.rounded()) }
                out.append(bus(Topic.dispatchRequest, .offerAccepted, request: id, driver: driver))
            case .requeued(let id, let driver, let reason):
                out += toRider(id, state: .matching, driver: nil) { $0.reason = reason }
                out.append(bus(Topic.dispatchRequest, .offerDeclined, request: id, driver: driver) { $0.reason = reason })
            case .drive(let driver, let leg):
                out += toDriver(driver, .driveTo(DriveTo.with {
                    $0.driverID = driverNames[driver] ?? ""
                    $0.leg = UInt32(leg.number)
                    $0.stop = switch leg.stop?.kind {
                    case .pickup?: .pickup
                    case .dropoff?: .dropoff
                    case nil: .reposition
                    }
                    $0.requestID = leg.stop.flatMap { requestNames[$0.request] } ?? ""
                    $0.destination = LatLon(engine.graph.positions[leg.timeline.route.nodes.last!])
                    $0.routeNodes = leg.timeline.route.nodes.map { UInt32($0) }
                    $0.departAtMs = WireMapping.milliseconds(leg.timeline.departure)
                    $0.arriveAtMs = WireMapping.milliseconds(leg.timeline.arrival)
                }))
            case .legCancelled(let driver, let leg):
                out += toDriver(driver, .driveTo(DriveTo.with {
                    $0.driverID = driverNames[driver] ?? ""
                    $0.leg = UInt32(leg)
                    $0.cancelled = true
                }))
            case .pickedUp(let id, let driver):
                out += toRider(id, state: .onTrip, driver: driver) { _ in }
                let waited = timed.time - (engine.wantedFrom(id) ?? timed.time)
                out.append(bus(Topic.dispatchRequest, .tripStarted, request: id, driver: driver) { $0.pickupWaitS = UInt32(max(0, waited).rounded()) })
            case .finished(let id, let outcome, let driver):
                offers = offers.filter { $0.value.request != id }
                switch outcome {
                case .completed(let fare):
                    out += toRider(id, state: .completed, driver: driver) { $0.fareCents = Int64(fare.riderPaysCents) }
                    out.append(bus(Topic.dispatchRequest, .tripCompleted, request: id, driver: driver) { $0.fareCents = Int64(fare.riderPaysCents) })
                case .cancelled(let party, let reason):
                    out += toRider(id, state: .cancelled, driver: driver) {
                        $0.cancelledBy = WireMapping.party(party)
                        $0.reason = reason
                    }
                    out.append(bus(Topic.dispatchRequest, .requestCancelled, request: id, driver: driver) {
                        $0.cancelledBy = WireMapping.party(party)
                        $0.reason = reason
                    })
                case .rejected(let reason):
                    out += toRider(id, state: .rejected, driver: nil) { $0.reason = reason }
                    out.append(bus(Topic.dispatchRequest, .requestRejected, request: id) { $0.reason = reason })
                }
            case .driverState(let driver, let state):
                out.append(bus(Topic.dispatchDriver, .driverStateChanged, driver: driver) { event in
                    event.driverState = WireMapping.driverState(state)
                    if let here = driverNames[driver].flatMap({ lastLocation[$0] }) { event.location = here }
                })
            case .surge(let zone, let multiplier):
                out.append(.publish(topic: Topic.dispatchSurge, event: Wire.DispatchEvent.with {
                    $0.kind = .surgeUpdated
                    $0.zone = "zone-\(zone)"
                    $0.surgeMultiplier = multiplier
                }))
            }
        }
        return out
    }

    private func bus(_ topic: String, _ kind: DispatchEventKind, request: RequestID? = nil, driver: DriverID? = nil,
                     _ fill: (inout Wire.DispatchEvent) -> Void = { _ in }) -> Outgoing {
        var event = Wire.DispatchEvent.with {
            $0.kind = kind
            if let request {
                $0.requestID = requestNames[request] ?? ""
                $0.tripID = requestNames[request].map { "trip-" + $0 } ?? ""
                $0.riderID = riderOfRequest[request] ?? ""
            }
            if let driver { $0.driverID = driverNames[driver] ?? "" }
        }
        fill(&event)
        return .publish(topic: topic, event: event)
    }

    private func toRider(_ id: RequestID, state: TripState, driver: DriverID?, _ fill: (inout TripUpdate) -> Void) -> [Outgoing] {
        guard let rider = riderOfRequest[id] else { return [] }
        var update = TripUpdate.with {
            $0.requestID = requestNames[id] ?? ""
            $0.tripID = "trip-" + (requestNames[id] ?? "")
            $0.state = state
            if let driver { $0.driverID = driverNames[driver] ?? "" }
        }
        fill(&update)
        lastToRider[rider] = update
        guard let peer = line(of: sessionOfRider[rider]) else { return [] }
        return [.toPeer(peer: peer, body: .tripUpdate(update), inReplyTo: "")]
    }

    private func toDriver(_ driver: DriverID, _ body: Envelope.OneOf_Body) -> [Outgoing] {
        guard let name = driverNames[driver] else { return [] }
        if case .driveTo = body { lastLegTo[name] = body }
        guard let peer = line(of: sessionOfDriver[name]) else { return [] }
        return [.toPeer(peer: peer, body: body, inReplyTo: "")]
    }
}
