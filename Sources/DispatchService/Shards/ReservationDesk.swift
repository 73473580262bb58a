import RideDispatch

/// The owner's side of matching across a border (docs/ARCHITECTURE.md, "Sharded dispatch"): a
/// neighbouring shard whose request is best served by one of this shard's idle drivers asks to
/// reserve the driver; this shard grants or refuses in its own order — granted only while the
/// driver is online, idle and held by nobody, and then offered nothing here (an engine hold) until
/// the requester hands its request over, releases the reservation, or the reservation expires.
///
/// What makes it safe: only the driver's owner ever offers the driver anything, from its own books
/// in its own journaled order, and a reservation is one more state in those books (the engine's
/// hold, which its invariant checks: a held driver has no offer and no plan). Messages between
/// shards come over a ``ShardLink``: each is taken exactly once, so a grant is never made twice
/// for one ask. A lost grant leaves a reservation that expires here; a requester that restarts
/// finds its asks in its own snapshot and journal. No sockets, no clocks: the shard feeds it what
/// arrives and the time, with its engine.
public struct ReservationDesk: Sendable, Equatable, Codable {
    /// A driver held for a neighbour's request.
    public struct Reservation: Sendable, Equatable, Codable {
        public let id: String
        public let driver: DriverID
        /// The shard that asked, and its request's name (the wire's request id: the request has
        /// no id here until it is handed over).
        public let shard: Int
        public let request: String
        public let expires: Double
    }

    /// What the asking shard is told.
    public enum Answer: Sendable, Equatable, Codable {
        case granted(id: String, driver: DriverID, expires: Double)
        case refused(id: String, reason: String)
    }

    /// How long a granted reservation waits for its request.
    public let lifetime: Double
    /// The reservations in force, by id.
    public private(set) var active: [String: Reservation] = [:]

    public init(lifetime: Double) {
        precondition(lifetime > 0)
        self.lifetime = lifetime
    }

    /// Shard `shard` asks to hold `driver` for its request `request` as reservation `id`.
    public mutating func reserve(
        _ id: String, driver: DriverID, for request: String, from shard: Int, now: Double, engine: DispatchEngine
    ) -> Answer {
        guard active[id] == nil else { return .refused(id: id, reason: "reservation \(id) is already in force") }
        do {
            try engine.hold(driver, for: id, now: now)
        } catch {
            return .refused(id: id, reason: error.reason)
        }
        let reservation = Reservation(id: id, driver: driver, shard: shard, request: request, expires: now + lifetime)
        active[id] = reservation
        return .granted(id: id, driver: driver, expires: reservation.expires)
    }

    /// The asking shard hands its request over under reservation `id`: the request is this
    /// shard's from now on. With the reservation in force it is submitted as the hold ends, in one
    /// step, and offered to the reserved driver at once; with the reservation gone (it expired while
    /// the handover was on its way, or its driver went offline) it is submitted and matched like
    /// any request here — the asker has let it go, so it is never refused for that. Refused only
    /// when the engine refuses the request itself.
    public mutating func handOver(
        _ id: String, request: RideRequest, named name: String, from provenance: RequestProvenance? = nil, now: Double,
        engine: DispatchEngine
    ) throws(DispatchRefusal) {
        let reservation = active.removeValue(forKey: id)
        if let reservation, reservation.request == name, engine.hold(of: reservation.driver) == id {
            do {
                try engine.submit(request, releasing: (reservation.driver, id), from: provenance, now: now)
                return
            } catch {
                try? engine.releaseHold(reservation.driver, of: id, now: now)
                throw error
            }
        }
        if let reservation { try? engine.releaseHold(reservation.driver, of: id, now: now) }
        try engine.submit(request, from: provenance, now: now)
    }

    /// The asking shard does not need the driver after all (its request was matched at home, or
    /// cancelled). Releasing a reservation no longer in force changes nothing.
    public mutating func release(_ id: String, now: Double, engine: DispatchEngine) {
        guard let reservation = active.removeValue(forKey: id) else { return }
        try? engine.releaseHold(reservation.driver, of: id, now: now)
    }

    /// Ends the reservations whose time ran out by `now`; returns them.
    public mutating func expire(now: Double, engine: DispatchEngine) -> [Reservation] {
        let due = active.values.filter { $0.expires <= now }.sorted { $0.id < $1.id }
        for reservation in due {
            active[reservation.id] = nil
            // A driver gone offline in the meantime is held by no one any more.
            try? engine.releaseHold(reservation.driver, of: reservation.id, now: now)
        }
        return due
    }
}
