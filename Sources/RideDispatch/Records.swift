import City

/// What dispatch keeps about one request.
struct RequestRecord: Codable {
    enum Phase: Equatable, Codable {
        case scheduled
        case waiting
        case offered(DriverID)
        case assigned(DriverID)
        case aboard(DriverID)
        case finished(RequestOutcome)
        /// Asked for across a border (sharded dispatch): matched to nobody here until thawed or handed out.
        case frozen
        /// Handed over to another shard, which owns it from then on: over for this one, without an outcome.
        case handedOut(shard: Int)
    }

    let request: RideRequest
    let quote: Quote
    let requestedAt: Double
    var phase: Phase
    /// When the request (re)entered matching, for ordering and for the match-wait limit.
    var waitingSince: Double
    var pickedUpAt: Double?
    /// Drivers who declined or let the offer expire: not offered this request again.
    var declinedBy: Set<DriverID> = []

    /// Over for this engine: ended, or handed over to another shard.
    var isFinished: Bool {
        switch phase {
        case .finished, .handedOut: true
        default: false
        }
    }
}

/// What dispatch keeps about one driver.
struct DriverRecord: Codable {
    let id: DriverID
    var online = true
    /// The node the driver is at, or the start of the leg they are driving.
    var node: Int
    /// What the driver will do, in order.
    var stops: [Stop] = []
    var offer: Offer?
    var leg: Leg?
    var legsIssued = 0
    /// Until when the driver stands at their last stop (a rider getting in or out).
    var readyAt: Double = 0
    /// The state last published.
    var published: DriverState = .offline
    /// A neighbouring shard's reservation that holds the driver for one of its requests (sharded
    /// dispatch): until it is released the driver is offered nothing here.
    var heldFor: String?

    /// An offer waiting for the driver's answer, and the plan it would give them.
    struct Offer: Codable {
        let request: RequestID
        let expires: Double
        let plan: [Stop]
        let pickupSeconds: Double
    }

    var state: DriverState {
        guard online else { return .offline }
        if !aboard.isEmpty { return .onTrip }
        if !stops.isEmpty { return .enRoute }
        return offer == nil ? .idle : .offered
    }

    /// Riders in the vehicle: a dropoff in the plan with no pickup before it.
    var aboard: [RequestID] {
        let pickups = Set(stops.lazy.filter { $0.kind == .pickup }.map(\.request))
        return stops.filter { $0.kind == .dropoff && !pickups.contains($0.request) }.map(\.request)
    }

    /// Idle and free to be offered a ride (repositioning drivers are).
    var isAvailable: Bool { online && stops.isEmpty && offer == nil && heldFor == nil }
    /// Online with stops to make and no offer pending: a driver a POOL request may share with.
    var hasOpenPlan: Bool { online && offer == nil && !stops.isEmpty }

    /// The driver where they can start something new at `time`, for matching.
    func placed(at time: Double) -> PlacedDriver {
        let start = position(at: time)
        return PlacedDriver(id: id, node: start.node, time: start.time)
    }

    /// Where the driver can start something new at `time`: the next node ahead on their leg (and
    /// when they reach it), or where they stand (once done with their last stop).
    func position(at time: Double) -> (node: Int, time: Double) {
        leg.map { $0.timeline.nextNode(at: time) } ?? (node, max(time, readyAt))
    }
}
