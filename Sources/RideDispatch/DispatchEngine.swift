import City

/// The brain of dispatch, with no I/O of its own: drivers, requests and trips, matching, offers,
/// pricing and surge, driven by commands stamped with simulated time. Each command either
/// changes the state and records what happened as ``DispatchEvent``s, or is refused with a
/// reason and changes nothing. Deterministic: the same commands give the same events.
///
/// Not `Sendable`: it lives on one actor (the dispatch process) or one runner.
public final class DispatchEngine {
    public let configuration: DispatchConfiguration
    /// The router for each moment of the run.
    public let travel: TravelTimeSchedule
    /// The router for now.
    public var planner: any RoutePlanner { travel.planner(at: now) }
    /// The roads (positions and free-flow times; every band's router has the same nodes).
    public let graph: RoadGraph
    public let zones: ZoneGrid

    /// The latest simulated time seen, in seconds.
    public internal(set) var now: Double = 0

    var drivers: [DriverID: DriverRecord] = [:]
    var requests: [RequestID: RequestRecord] = [:]
    /// Requests in matching, and scheduled ones not yet in it.
    var waiting: Set<RequestID> = []
    var scheduled: Set<RequestID> = []
    var nextMatching: Double?
    var surge: SurgeBoard
    var nextRebalancing: Double?
    /// Node positions in metres on a local plane, for straight-line candidate search.
    let nodeXY: [(x: Double, y: Double)]
    /// Available drivers standing still, by where they stand, and available drivers on the move
    /// (rebalancing), whose place depends on the moment: kept by ``refreshAvailability(of:)``
    /// whenever a driver's record changes.
    var standingAvailable: DriverGrid
    var movingAvailable: Set<DriverID> = []
    /// Drivers online with a plan and no offer pending: those a POOL request may share with, once
    /// their plan is checked (``sharingPlaced()``). Kept by ``refreshAvailability(of:)`` with the
    /// two above; worked out from the records on a restore.
    var planned: Set<DriverID> = []
    /// Where the available drivers on the move are, worked out once per instant: a matching round
    /// looks for every waiting request's nearest drivers, and each look would otherwise place
    /// every moving driver on its route again. Made again after any driver record changes.
    var movingPlaces: (time: Double, places: [(id: DriverID, node: Int)])?
    /// The last quote's pickup estimate, and where and when it was for: a rider asks for a quote
    /// of each product at once, from the same pickup at the same instant. Forgotten with
    /// ``movingPlaces``, whenever a driver record changes.
    var lastPickupEstimate: (node: Int, time: Double, seconds: Double?)?
    /// When open offers expire, and when waiting requests run out of time to be matched: told of
    /// each as it is set (``offer(_:to:)``, ``expectMatchDeadline(of:)``), checked against the
    /// records when due.
    var offerExpiries = DeadlineQueue<DriverID>()
    var matchDeadlines = DeadlineQueue<RequestID>()
    /// When scheduled rides enter matching (their pickup less the lead time).
    var scheduledEntries = DeadlineQueue<RequestID>()
    private var outbox: [TimedDispatchEvent] = []

    /// An engine that routes with one router for the whole run.
    public convenience init(planner: any RoutePlanner, configuration: DispatchConfiguration = DispatchConfiguration()) {
        self.init(travel: TravelTimeSchedule(planner: planner), configuration: configuration)
    }

    /// An engine that routes with `travel`'s router of each moment.
    public init(travel: TravelTimeSchedule, configuration: DispatchConfiguration = DispatchConfiguration()) {
        self.travel = travel
        self.configuration = configuration
        let graph = travel.graph
        self.graph = graph
        zones = ZoneGrid(graph: graph, cellSize: configuration.zoneSize)
        let projection = LocalProjection(origin: graph.positions[0])
        nodeXY = graph.positions.map { projection.project($0) }
        standingAvailable = DriverGrid(covering: nodeXY)
        surge = SurgeBoard(zoneCount: zones.zoneCount)
        nextMatching = configuration.strategy.period
        if case .towardUnmetDemand(let interval, _) = configuration.rebalancing { nextRebalancing = interval }
    }

    // MARK: Events

    /// Everything that happened since the last call, in order.
    public func takeEvents() -> [TimedDispatchEvent] {
        defer { outbox.removeAll(keepingCapacity: true) }
        return outbox
    }

    func emit(_ event: DispatchEvent) { outbox.append(TimedDispatchEvent(time: now, event: event)) }

    func publishState(of id: DriverID) {
        guard let state = drivers[id]?.state, state != drivers[id]?.published else { return }
        drivers[id]?.published = state
        emit(.driverState(id, state))
    }

    func advanceClock(_ time: Double) { now = max(now, time) }

    // MARK: Queries

    public func state(of driver: DriverID) -> DriverState? { drivers[driver]?.state }

    /// The road node a driver was last known at (where its current leg began, or where it stood).
    public func position(of driver: DriverID) -> Int? { drivers[driver]?.node }
    public func outcome(of request: RequestID) -> RequestOutcome? {
        if case .finished(let outcome) = requests[request]?.phase { return outcome }
        return nil
    }
    /// Where an unfinished request stands, or `nil` once it has ended (or was never submitted).
    public func progress(of request: RequestID) -> RequestProgress? {
        switch requests[request]?.phase {
        case .scheduled?: .scheduled
        case .waiting?: .waiting
        case .offered(let driver)?: .offered(driver)
        case .assigned(let driver)?: .assigned(driver)
        case .aboard(let driver)?: .aboard(driver)
        // To its rider a request asked for across a border still waits.
        case .frozen?: .waiting
        case .finished?, .handedOut?, nil: nil
        }
    }
    /// What `request` would take to another shard if handed over: when its rider asked, its price.
    public func provenance(of request: RequestID) -> RequestProvenance? {
        requests[request].map {
            RequestProvenance(requestedAt: $0.requestedAt, priceCents: $0.quote.priceCents, surge: $0.quote.surge)
        }
    }
    /// Whether `request` is frozen: asked for across a border, matched to nobody here meanwhile.
    public func isFrozen(_ request: RequestID) -> Bool { requests[request]?.phase == .frozen }
    /// The shard `request` was handed over to, if it was.
    public func handedOutShard(of request: RequestID) -> Int? {
        if case .handedOut(let shard)? = requests[request]?.phase { return shard }
        return nil
    }
    /// Requests not yet ended, in id order.
    public var unfinishedRequests: [RequestID] { requests.filter { !$0.value.isFinished }.keys.sorted() }
    /// Every driver dispatch knows, in id order, with their state.
    public var driverStates: [(driver: DriverID, state: DriverState)] {
        drivers.values.map { ($0.id, $0.state) }.sorted { $0.driver < $1.driver }
    }
    /// The request as submitted.
    public func request(_ id: RequestID) -> RideRequest? { requests[id]?.request }
    /// The price the request was quoted at when it was submitted.
    public func quotedPriceCents(of id: RequestID) -> Int? { requests[id]?.quote.priceCents }
    /// When the rider wanted to be picked up from: the time of the request, or its scheduled
    /// pickup if later. Pickup waits count from here.
    public func wantedFrom(_ id: RequestID) -> Double? {
        requests[id].map { max($0.requestedAt, $0.request.pickupAt ?? $0.requestedAt) }
    }
    /// Requests submitted and not yet ended.
    public internal(set) var unfinishedCount = 0
    public var driverCount: Int { drivers.count }

    /// Whether `driver` is online with nothing to do: no plan, no offer, no hold, not driving
    /// anywhere (not even repositioning).
    public func isFree(_ driver: DriverID) -> Bool { drivers[driver].map { $0.isAvailable && $0.leg == nil } ?? false }
    /// How many legs `driver` has been given, here and (handed over) before.
    public func legsIssued(of driver: DriverID) -> Int { drivers[driver]?.legsIssued ?? 0 }
    /// The number of the leg `driver` is driving, if any.
    public func currentLeg(of driver: DriverID) -> Int? { drivers[driver]?.leg?.number }
    /// The plan a driver is following.
    public func stops(of driver: DriverID) -> [Stop] { drivers[driver]?.stops ?? [] }
    /// The surge multiplier currently applied in the zone of `node`.
    public func surgeMultiplier(at node: Int) -> Double { surge.multiplier[zones.zone(of: node)] }

    // MARK: Commands

    /// A driver starts work at `node` (or comes back online). `legsIssued`: the legs it was given
    /// before elsewhere (sharded dispatch: at the shards it was handed from), so that this one
    /// numbers its legs on from there — a driver's leg numbers only ever rise.
    public func driverOnline(_ id: DriverID, at node: Int, legsIssued: Int = 0, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        try validate(node: node, "driver position")
        advanceClock(time)
        if let record = drivers[id], record.online { throw DispatchRefusal(reason: "\(id) is already online") }
        var record = drivers[id] ?? DriverRecord(id: id, node: node)
        record.online = true
        record.node = node
        record.legsIssued = max(record.legsIssued, legsIssued)
        drivers[id] = record
        refreshAvailability(of: id)
        publishState(of: id)
        matchIfOnArrival()
    }

    /// A driver stops work. An open offer counts as declined; riders not yet picked up go back to
    /// matching; riders aboard end cancelled by the driver.
    public func driverOffline(_ id: DriverID, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard var record = drivers[id], record.online else { throw DispatchRefusal(reason: "\(id) is not online") }
        advanceClock(time)
        if let offer = record.offer { withdraw(offer, from: id, timedOut: false) }
        record = driverRecord(id)
        let aboard = Set(record.aboard)
        record.node = record.position(at: now).node
        for stop in record.stops where stop.kind == .dropoff {
            if aboard.contains(stop.request) {
                finish(stop.request, .cancelled(by: .driver, reason: "driver went offline mid-trip"), driver: id)
            } else {
                requeue(stop.request, from: id, reason: "driver went offline")
            }
        }
        if let leg = record.leg { emit(.legCancelled(id, leg: leg.number)) }
        record.stops = []
        record.leg = nil
        record.offer = nil
        record.online = false
        // A driver who leaves is no one's to hold: the reservation finds it gone when used.
        record.heldFor = nil
        drivers[id] = record
        refreshAvailability(of: id)
        publishState(of: id)
        matchIfOnArrival()
    }

    /// A neighbouring shard holds an idle driver of this one for its request (sharded dispatch,
    /// docs/ARCHITECTURE.md): until ``releaseHold(_:of:now:)`` the driver is offered nothing here,
    /// counts as no supply for surge, and is not moved by rebalancing. Refused unless the driver
    /// is online and idle (no plan, no offer) and not already held — the owner's own order decides.
    public func hold(_ id: DriverID, for reservation: String, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard let record = drivers[id], record.online else { throw DispatchRefusal(reason: "\(id) is not online") }
        advanceClock(time)
        if let holder = record.heldFor { throw DispatchRefusal(reason: "\(id) is already held for \(holder)") }
        guard record.isAvailable else { throw DispatchRefusal(reason: "\(id) is not idle (\(record.state))") }
        updateDriver(id) { $0.heldFor = reservation }
    }

    /// Ends `reservation`'s hold on a driver (used, released or expired): it is free for matching
    /// again. Refused when that reservation does not hold the driver.
    public func releaseHold(_ id: DriverID, of reservation: String, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard drivers[id]?.heldFor == reservation else { throw DispatchRefusal(reason: "\(id) is not held for \(reservation)") }
        advanceClock(time)
        updateDriver(id) { $0.heldFor = nil }
        matchIfOnArrival()
    }

    /// The idle drivers (not held, no offer, no plan) who could reach `node` soonest, at most
    /// `limit`, with their driving time, fastest first; only those within the pickup limit. What a
    /// shard answers a neighbour that asks for candidates across the border; it reserves nothing.
    public func nearestIdle(to node: Int, limit: Int, now time: Double) -> [(driver: DriverID, seconds: Double)] {
        guard graph.positions.indices.contains(node) else { return [] }
        advanceClock(time)
        return nearestAvailable(to: node, excluding: [], limit: limit)
    }

    /// The reservation holding `driver`, if one does.
    public func hold(of driver: DriverID) -> String? { drivers[driver]?.heldFor }

    /// A price and pickup estimate, without asking for the ride; `nil` when no road leads from
    /// the origin to the destination.
    public func quote(from origin: Int, to destination: Int, product: RideRequest.Product = .standard, now time: Double) -> Quote?
    {
        advanceClock(time)
        return price(from: origin, to: destination, product: product, estimatingPickup: true)
    }

    /// The upfront price of a ride; the pickup estimate (routes from the nearest idle drivers) is
    /// only worked out for a quote, since a submitted request is matched right after.
    private func price(from origin: Int, to destination: Int, product: RideRequest.Product, estimatingPickup: Bool) -> Quote? {
        guard graph.positions.indices.contains(origin), graph.positions.indices.contains(destination),
            let trip = planner.route(from: origin, to: destination)
        else { return nil }
        let multiplier = surge.multiplier[zones.zone(of: origin)]
        let price = configuration.pricing.priceCents(metres: trip.length, seconds: trip.time, surge: multiplier, product: product)
        let pickup = estimatingPickup ? pickupEstimate(to: origin) : nil
        return Quote(priceCents: price, surge: multiplier, pickupETA: pickup, tripSeconds: trip.time, tripMetres: trip.length)
    }

    /// How soon the fastest available driver could reach `node` now, if any can within the
    /// pickup limit.
    private func pickupEstimate(to node: Int) -> Double? {
        if let last = lastPickupEstimate, last.node == node, last.time == now { return last.seconds }
        let seconds = nearestAvailable(to: node, excluding: []).first.map(\.seconds)
        lastPickupEstimate = (node, now, seconds)
        return seconds
    }

    /// A rider asks for a ride. It is quoted, then matched now, at the next matching round, or
    /// (scheduled) in time for its pickup; a ride no road can serve is rejected at once.
    ///
    /// `releasing`: a request handed over from a neighbouring shard under a reservation of one of
    /// this shard's drivers — the hold ends as the request arrives, in one step, and the driver is
    /// offered this request at once (unless no road leads to it within the pickup limit: then it
    /// is matched as any other). Refused, changing nothing, unless that reservation holds that driver.
    ///
    /// `from`: what a request handed over keeps from the shard it left — when its rider asked
    /// (its pickup wait counts from there) and the price its pickup zone's owner quoted.
    public func submit(
        _ request: RideRequest, releasing hold: (driver: DriverID, reservation: String)? = nil,
        from provenance: RequestProvenance? = nil, now time: Double
    ) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard requests[request.id] == nil else { throw DispatchRefusal(reason: "\(request.id) was already submitted") }
        try validate(node: request.origin, "origin")
        try validate(node: request.destination, "destination")
        if let hold, drivers[hold.driver]?.heldFor != hold.reservation {
            throw DispatchRefusal(reason: "\(hold.driver) is not held for \(hold.reservation)")
        }
        advanceClock(time)
        if let hold { updateDriver(hold.driver) { $0.heldFor = nil } }
        unfinishedCount += 1
        surge.record(zone: zones.zone(of: request.origin), at: now)
        guard
            let quote = price(from: request.origin, to: request.destination, product: request.product, estimatingPickup: false)
                .map({ provenance?.quote(routed: $0) ?? $0 })
        else {
            let unroutable = Quote(priceCents: 0, surge: 1, pickupETA: nil, tripSeconds: 0, tripMetres: 0)
            requests[request.id] = RequestRecord(
                request: request, quote: unroutable, requestedAt: now, phase: .waiting, waitingSince: now)
            emit(.requested(request.id, request, unroutable))
            finish(request.id, .rejected(reason: "no road leads from the origin to the destination"), driver: nil)
            return
        }
        let isLater = (request.pickupAt ?? now) - configuration.scheduledLeadSeconds > now
        requests[request.id] = RequestRecord(
            request: request, quote: quote, requestedAt: min(provenance?.requestedAt ?? now, now),
            phase: isLater ? .scheduled : .waiting, waitingSince: now)
        emit(.requested(request.id, request, quote))
        if isLater {
            scheduled.insert(request.id)
            scheduledEntries.add(matchingEntry(of: request), for: request.id)
            emit(.scheduled(request.id, pickupAt: request.pickupAt!))
        } else {
            waiting.insert(request.id)
            expectMatchDeadline(of: request.id)
            // The driver held for it is offered it at once, whatever else waits here.
            if let hold, let candidate = directCandidate(hold.driver, for: request) { offer(request.id, to: candidate) }
            matchIfOnArrival()
        }
    }

    /// `driver`, free, as the candidate for `request`: its time to the pickup, if a road leads
    /// there within the pickup limit.
    private func directCandidate(_ driver: DriverID, for request: RideRequest) -> Candidate? {
        let record = driverRecord(driver)
        guard record.isAvailable, let seconds = pickupSeconds(from: record.placed(at: now), to: request.origin) else {
            return nil
        }
        return Candidate(driver: driver, seconds: seconds, plan: soloPlan(request))
    }

    /// A driver answers an offer.
    public func respond(driver id: DriverID, to requestID: RequestID, accept: Bool, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard let offer = drivers[id]?.offer, offer.request == requestID else {
            throw DispatchRefusal(reason: "\(id) has no open offer for \(requestID)")
        }
        advanceClock(time)
        guard accept else {
            withdraw(offer, from: id, timedOut: false)
            publishState(of: id)
            matchIfOnArrival()
            return
        }
        let current = driverRecord(id).stops
        updateDriver(id) { record in
            record.offer = nil
            // Stops done or cancelled while the driver was deciding leave the offered plan.
            record.stops = offer.plan.filter { $0.request == requestID || current.contains($0) }
        }
        updateRequest(requestID) { $0.phase = .assigned(id) }
        waiting.remove(requestID)
        emit(.matched(requestID, id, pickupSeconds: offer.pickupSeconds))
        let record = driverRecord(id)
        if record.leg == nil || record.leg?.stop == nil || current.first != record.stops.first { startLeg(id) }
        publishState(of: id)
    }

    /// A driver reached the end of leg `number`: picks up or drops off there, then drives on.
    public func arrived(driver id: DriverID, leg number: Int, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard let leg = drivers[id]?.leg, leg.number == number else {
            throw DispatchRefusal(reason: "\(id) is not driving leg \(number)")
        }
        advanceClock(time)
        updateDriver(id) { record in
            record.node = leg.timeline.route.nodes.last ?? record.node
            record.leg = nil
            if let stop = leg.stop {
                record.stops.removeFirst()
                record.readyAt = now + configuration.dwellSeconds(at: stop.kind)
            }
        }
        if let stop = leg.stop {
            switch stop.kind {
            case .pickup:
                updateRequest(stop.request) { [now] in
                    $0.phase = .aboard(id)
                    $0.pickedUpAt = now
                }
                emit(.pickedUp(stop.request, id))
            case .dropoff:
                let fare = configuration.pricing.split(requestRecord(stop.request).quote.priceCents)
                finish(stop.request, .completed(fare), driver: id)
            }
            if !driverRecord(id).stops.isEmpty { startLeg(id) }
        }
        publishState(of: id)
        if driverRecord(id).isAvailable { matchIfOnArrival() }
    }

    /// The rider (any time before pickup) or the driver (after accepting, before pickup) cancels.
    /// A rider's cancellation ends the request; a driver's sends it back to matching.
    public func cancel(_ requestID: RequestID, by party: Party, reason: String, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard let record = requests[requestID] else { throw DispatchRefusal(reason: "\(requestID) is unknown") }
        advanceClock(time)
        switch (record.phase, party) {
        case (.finished, _):
            throw DispatchRefusal(reason: "\(requestID) has already ended")
        case (.handedOut(let shard), _):
            throw DispatchRefusal(reason: "\(requestID) was handed over to shard \(shard)")
        case (.aboard, _):
            throw DispatchRefusal(reason: "\(requestID): the rider is aboard; the trip ends at the dropoff")
        case (.assigned(let driver), .driver):
            removeStops(of: requestID, from: driver)
            requeue(requestID, from: driver, reason: reason)
            publishState(of: driver)
            matchIfOnArrival()
        case (_, .driver):
            throw DispatchRefusal(reason: "\(requestID) has no driver to cancel it")
        case (.offered(let driver), _):
            updateDriver(driver) { $0.offer = nil }
            finish(requestID, .cancelled(by: party, reason: reason), driver: nil)
            publishState(of: driver)
        case (.assigned(let driver), _):
            removeStops(of: requestID, from: driver)
            finish(requestID, .cancelled(by: party, reason: reason), driver: driver)
            publishState(of: driver)
            matchIfOnArrival()
        case (.waiting, _), (.scheduled, _), (.frozen, _):
            finish(requestID, .cancelled(by: party, reason: reason), driver: nil)
        }
    }

    /// A waiting request is asked for across a border (sharded dispatch): it is matched to nobody
    /// here until ``thaw(_:now:)`` or ``handOut(_:to:now:)``; its wait limit does not run meanwhile.
    public func freeze(_ id: RequestID, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard let record = requests[id] else { throw DispatchRefusal(reason: "\(id) is unknown") }
        guard record.phase == .waiting else { throw DispatchRefusal(reason: "\(id) is not waiting for a match") }
        advanceClock(time)
        updateRequest(id) { $0.phase = .frozen }
        waiting.remove(id)
    }

    /// A frozen request was not taken across the border: it waits here again, its wait limit
    /// counted from when it first waited.
    public func thaw(_ id: RequestID, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard requests[id]?.phase == .frozen else { throw DispatchRefusal(reason: "\(id) is not frozen") }
        advanceClock(time)
        updateRequest(id) { $0.phase = .waiting }
        waiting.insert(id)
        expectMatchDeadline(of: id)
        matchIfOnArrival()
    }

    /// A frozen request leaves for shard `shard`, which owns it from now on: over for this engine,
    /// without an outcome (it ends at the shard that has it last).
    public func handOut(_ id: RequestID, to shard: Int, now time: Double) throws(DispatchRefusal) {
        defer { checkInvariants() }
        guard requests[id]?.phase == .frozen else { throw DispatchRefusal(reason: "\(id) is not frozen") }
        advanceClock(time)
        updateRequest(id) { $0.phase = .handedOut(shard: shard) }
        unfinishedCount -= 1
        emit(.handedOut(id, shard: shard))
    }

    /// Runs every timer due by `time`: offer timeouts, scheduled rides entering matching,
    /// requests waiting too long, surge, rebalancing, and periodic matching.
    public func advance(to time: Double) {
        defer { checkInvariants() }
        advanceClock(time)
        var changed = false
        let expired = offerExpiries.takeDue(by: now, where: isCurrentOfferExpiry)
        assert(
            expired == drivers.values.compactMap({ $0.offer.map(\.expires) ?? .infinity <= now ? $0.id : nil }).sorted(),
            "the offer queue and the drivers' records disagree on the offers expired by \(now)")
        for id in expired {
            withdraw(driverRecord(id).offer!, from: id, timedOut: true)
            publishState(of: id)
            changed = true
        }
        let entering = scheduledEntries.takeDue(by: now) { scheduled.contains($1) }
        assert(
            entering == scheduled.filter({ matchingEntry(of: requestRecord($0).request) <= now }).sorted(),
            "the scheduled queue and the requests' records disagree on the rides entering matching by \(now)")
        for id in entering {
            scheduled.remove(id)
            waiting.insert(id)
            updateRequest(id) { [now] in
                $0.phase = .waiting
                $0.waitingSince = now
            }
            expectMatchDeadline(of: id)
            changed = true
        }
        let outOfTime = matchDeadlines.takeDue(by: now, where: isCurrentMatchDeadline)
        assert(
            outOfTime == waiting.filter({ matchDeadline(of: requestRecord($0)).map { $0 <= now } ?? false }).sorted(),
            "the match-deadline queue and the requests' records disagree on the requests out of time by \(now)")
        for id in outOfTime {
            finish(
                id, .rejected(reason: "no driver could be matched within \(Int(configuration.maxMatchWaitSeconds)) s"),
                driver: nil)
        }
        updateSurge()
        if let due = nextRebalancing, due <= now, case .towardUnmetDemand(let interval, let moves) = configuration.rebalancing {
            rebalance(maxMoves: moves)
            nextRebalancing = Self.nextTime(after: due, every: interval, now: now)
        }
        if let due = nextMatching, due <= now {
            match()
            nextMatching = Self.nextTime(after: due, every: configuration.strategy.period!, now: now)
        } else if changed {
            matchIfOnArrival()
        }
    }

    /// The earliest simulated time at which ``advance(to:)`` has something to do.
    public var nextDeadline: Double? {
        // Asked after every input in virtual time: no array, no scan.
        func earlier(_ a: Double?, _ b: Double?) -> Double? {
            guard let a else { return b }
            guard let b else { return a }
            return min(a, b)
        }
        var earliest = earlier(earlier(nextMatching, nextRebalancing), surge.nextUpdate)
        earliest = earlier(earliest, offerExpiries.earliest(where: isCurrentOfferExpiry))
        earliest = earlier(earliest, scheduledEntries.earliest(where: { scheduled.contains($1) }))
        earliest = earlier(earliest, matchDeadlines.earliest(where: isCurrentMatchDeadline))
        let next = earliest.map { max($0, now) }
        assert(
            next == scannedNextDeadline,
            "the deadline queues missed a deadline: \(String(describing: next)) against a scan's \(String(describing: scannedNextDeadline))"
        )
        return next
    }

    /// ``nextDeadline`` by a scan of every driver and waiting request: what the queues must
    /// agree with (checked in debug builds).
    var scannedNextDeadline: Double? {
        var times: [Double] = [nextMatching, nextRebalancing, surge.nextUpdate].compactMap { $0 }
        times += drivers.values.compactMap { $0.offer?.expires }
        times += scheduled.map { matchingEntry(of: requestRecord($0).request) }
        times += waiting.compactMap { requests[$0].flatMap(matchDeadline) }
        return times.min().map { max($0, now) }
    }

    /// Whether `driver`'s open offer expires at `time`.
    func isCurrentOfferExpiry(_ time: Double, _ driver: DriverID) -> Bool { drivers[driver]?.offer?.expires == time }

    /// Whether `id` is waiting for a match that it runs out of time for at `time`.
    func isCurrentMatchDeadline(_ time: Double, _ id: RequestID) -> Bool {
        requests[id].flatMap(matchDeadline) == time
    }

    /// Call whenever `id` is (back) in the waiting phase: its match deadline is queued.
    func expectMatchDeadline(of id: RequestID) {
        if let deadline = matchDeadline(of: requestRecord(id)) { matchDeadlines.add(deadline, for: id) }
    }

    /// When a request waiting for a match runs out of time (`nil` in any other phase). The one
    /// sum every check uses: `now - since >= limit` can miss by a rounding.
    func matchDeadline(of record: RequestRecord) -> Double? {
        record.phase == .waiting ? record.waitingSince + configuration.maxMatchWaitSeconds : nil
    }

    /// When a scheduled ride enters matching: its pickup less the lead time.
    func matchingEntry(of request: RideRequest) -> Double { request.pickupAt! - configuration.scheduledLeadSeconds }

    // MARK: Internals

    private func validate(node: Int, _ what: String) throws(DispatchRefusal) {
        guard graph.positions.indices.contains(node) else {
            throw DispatchRefusal(reason: "\(what) node \(node) is not in the road graph (0..<\(graph.nodeCount))")
        }
    }

    func finish(_ id: RequestID, _ outcome: RequestOutcome, driver: DriverID?) {
        updateRequest(id) { $0.phase = .finished(outcome) }
        unfinishedCount -= 1
        waiting.remove(id)
        scheduled.remove(id)
        emit(.finished(id, outcome, driver))
    }

    /// Ends an offer without acceptance: the request goes back to matching, without that driver.
    func withdraw(_ offer: DriverRecord.Offer, from driver: DriverID, timedOut: Bool) {
        updateDriver(driver) { $0.offer = nil }
        updateRequest(offer.request) {
            $0.declinedBy.insert(driver)
            $0.phase = .waiting
        }
        // Back to waiting since when it first waited: its deadline may have passed while offered.
        expectMatchDeadline(of: offer.request)
        emit(.declined(offer.request, driver, timedOut: timedOut))
    }

    func requeue(_ id: RequestID, from driver: DriverID, reason: String) {
        updateRequest(id) { [now] in
            $0.phase = .waiting
            $0.declinedBy.insert(driver)
            $0.waitingSince = now
        }
        waiting.insert(id)
        expectMatchDeadline(of: id)
        emit(.requeued(id, driver, reason: reason))
    }

    /// Takes a request's stops out of a driver's plan, re-routing if the leg led to one of them.
    func removeStops(of request: RequestID, from driver: DriverID) {
        let ledThere = driverRecord(driver).leg?.stop?.request == request
        updateDriver(driver) { $0.stops.removeAll { $0.request == request } }
        if ledThere, let leg = driverRecord(driver).leg {
            updateDriver(driver) { [now] record in
                record.node = record.position(at: now).node
                record.leg = nil
            }
            if driverRecord(driver).stops.isEmpty {
                emit(.legCancelled(driver, leg: leg.number))
            } else {
                startLeg(driver)
            }
        }
    }

    /// Sends the driver from where they are (or are about to be) to their first stop.
    func startLeg(_ id: DriverID) {
        guard let stop = driverRecord(id).stops.first else { return }
        drive(id, to: stop.node, stop: stop)
    }

    func drive(_ id: DriverID, to target: Int, stop: Stop?) {
        let from = driverRecord(id).position(at: now)
        let planner = self.planner
        // Within one strongly connected road network every node reaches every other.
        let route = planner.route(from: from.node, to: target) ?? Route(time: 0, length: 0, nodes: [from.node])
        let leg = updateDriver(id) { record in
            record.legsIssued += 1
            record.node = from.node
            record.leg = Leg(
                number: record.legsIssued, timeline: RouteTimeline(route: route, departure: from.time, graph: planner.graph),
                stop: stop)
            return record.leg
        }
        guard let leg else { return }
        emit(.drive(id, leg))
    }

    /// The first time after `now` on the schedule `due`, `due + interval`, … (rounds missed while
    /// nothing called ``advance(to:)`` are skipped, not run late one after another).
    static func nextTime(after due: Double, every interval: Double, now: Double) -> Double {
        due + interval * ((now - due) / interval + 1).rounded(.down)
    }

    func matchIfOnArrival() {
        if configuration.strategy == .greedyOnArrival { match() }
    }
}

extension MatchingStrategy {
    /// Seconds between matching rounds, or `nil` for matching on arrival.
    var period: Double? {
        switch self {
        case .greedyOnArrival: nil
        case .greedy(let interval), .batched(let interval): interval
        }
    }
}
