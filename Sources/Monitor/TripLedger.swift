import Wire

/// One row per request of a run, from dispatch's events on the bus: what an analyst loads as
/// `trips.csv`. A row is handed out when its request ends; ``finish(as:)`` hands out the rest.
public struct TripLedger: Sendable {
    /// One request, from its creation to its end.
    public struct Trip: Sendable, Equatable {
        public var requestID: String
        public var riderID = ""
        public var product = ""
        /// `completed`, `cancelled`, `rejected`, or what ``finish(as:)`` calls those still open.
        public var outcome = ""
        public var reason = ""
        public var cancelledBy = ""
        public var requestedMs: Int64?
        public var firstOfferMs: Int64?
        public var offers = 0
        public var matchedMs: Int64?
        public var pickedUpMs: Int64?
        public var droppedOffMs: Int64?
        public var endedMs: Int64?
        public var pickup: LatLon?
        public var pickupZone = ""
        public var dropoff: LatLon?
        public var dropoffZone = ""
        public var pickupWaitSeconds: UInt32?
        public var tripMetres: UInt32 = 0
        public var fareCents: Int64 = 0
        public var driverEarnsCents: Int64 = 0
        public var surge = 1.0
        public var driverID = ""
        /// Requests that shared the car with this one at some point of its trip.
        public var pooledWith: Set<String> = []

        public init(requestID: String) {
            self.requestID = requestID
        }
    }

    public static let header = CSV.line([
        "request_id", "rider_id", "product", "outcome", "reason", "cancelled_by", "requested_at", "first_offer_at", "offers",
        "matched_at", "picked_up_at", "dropped_off_at", "ended_at", "pickup_lat", "pickup_lon", "pickup_zone", "dropoff_lat",
        "dropoff_lon", "dropoff_zone", "pickup_wait_s", "trip_s", "trip_m", "fare_cents", "driver_earns_cents", "surge",
        "driver_id", "pooled_with",
    ])

    public let clock: ClockTimeOfDay
    private var open: [String: Trip] = [:]
    private var aboard: [String: Set<String>] = [:]

    public init(clock: ClockTimeOfDay) {
        self.clock = clock
    }

    /// Requests not ended yet.
    public var openCount: Int { open.count }

    /// Applies one bus envelope; returns the trips it ended. Each envelope once: the caller drops
    /// repeats (a restored dispatch publishes its last events again).
    public mutating func apply(_ envelope: Envelope) -> [Trip] {
        guard case .dispatchEvent(let event)? = envelope.body, !event.requestID.isEmpty else { return [] }
        let time = envelope.simTimeMs
        let id = event.requestID
        var trip = open[id] ?? Trip(requestID: id)
        switch event.kind {
        case .requestCreated:
            trip.riderID = event.riderID
            trip.product = event.product == .pool ? "pool" : "uberx"
            // A request handed across a shard border is created again where it went: its rider
            // asked at the first.
            if trip.requestedMs == nil { trip.requestedMs = time }
            if event.hasLocation { trip.pickup = event.location }
            trip.pickupZone = event.zone
            if event.hasDropoff { trip.dropoff = event.dropoff }
            trip.dropoffZone = event.dropoffZone
            trip.tripMetres = event.tripMetres
            trip.fareCents = event.fareCents
            trip.surge = event.surgeMultiplier == 0 ? 1 : event.surgeMultiplier
        case .offerSent:
            trip.offers += 1
            if trip.firstOfferMs == nil { trip.firstOfferMs = time }
        case .offerAccepted:
            if trip.matchedMs == nil { trip.matchedMs = time }
            trip.driverID = event.driverID
        case .tripStarted:
            trip.pickedUpMs = time
            trip.pickupWaitSeconds = event.pickupWaitS
            trip.driverID = event.driverID
            for other in aboard[event.driverID, default: []] {
                trip.pooledWith.insert(other)
                open[other]?.pooledWith.insert(id)
            }
            aboard[event.driverID, default: []].insert(id)
        case .tripCompleted:
            trip.droppedOffMs = time
            trip.fareCents = event.fareCents
            trip.driverEarnsCents = event.driverEarnsCents
            if event.hasLocation { trip.dropoff = event.location }
            if !event.zone.isEmpty { trip.dropoffZone = event.zone }
            return [end(trip, "completed", at: time)]
        case .requestCancelled:
            trip.reason = event.reason
            trip.cancelledBy = Self.party(event.cancelledBy)
            return [end(trip, "cancelled", at: time)]
        case .requestRejected:
            trip.reason = event.reason
            return [end(trip, "rejected", at: time)]
        default:
            // Nothing of a ride's row (riders' features: a shared ETA, a split fare — which comes
            // after the ride ended, and used to open a row of its own that ended as "open").
            return []
        }
        open[id] = trip
        return []
    }

    /// Ends every request still open, as `outcome` (`open` at the end of a run, or what ended it).
    public mutating func finish(as outcome: String) -> [Trip] {
        let rest = open.values.sorted { ($0.requestedMs ?? 0, $0.requestID) < ($1.requestedMs ?? 0, $1.requestID) }
        open = [:]
        aboard = [:]
        return rest.map { trip in
            var trip = trip
            trip.outcome = outcome
            return trip
        }
    }

    /// A trip as a `trips.csv` line (times as clock time of day).
    public func csvLine(_ trip: Trip) -> String {
        let time = { (ms: Int64?) in ms.map { clock.format(milliseconds: $0) } ?? "" }
        let seconds = { (from: Int64?, to: Int64?) -> String in
            guard let from, let to else { return "" }
            return String(Double(to - from) / 1_000)
        }
        return CSV.line([
            trip.requestID, trip.riderID, trip.product, trip.outcome, trip.reason, trip.cancelledBy, time(trip.requestedMs),
            time(trip.firstOfferMs), String(trip.offers), time(trip.matchedMs), time(trip.pickedUpMs), time(trip.droppedOffMs),
            time(trip.endedMs), trip.pickup.map { String($0.lat) } ?? "", trip.pickup.map { String($0.lon) } ?? "",
            trip.pickupZone, trip.dropoff.map { String($0.lat) } ?? "", trip.dropoff.map { String($0.lon) } ?? "",
            trip.dropoffZone, trip.pickupWaitSeconds.map(String.init) ?? "", seconds(trip.pickedUpMs, trip.droppedOffMs),
            String(trip.tripMetres), String(trip.fareCents), String(trip.driverEarnsCents), String(trip.surge), trip.driverID,
            trip.pooledWith.sorted().joined(separator: " "),
        ])
    }

    private mutating func end(_ trip: Trip, _ outcome: String, at time: Int64) -> Trip {
        var trip = trip
        trip.outcome = outcome
        trip.endedMs = time
        open[trip.requestID] = nil
        if !trip.driverID.isEmpty { aboard[trip.driverID]?.remove(trip.requestID) }
        return trip
    }

    private static func party(_ party: Party) -> String {
        switch party {
        case .rider: "rider"
        case .driver: "driver"
        case .dispatch: "dispatch"
        case .system: "system"
        default: ""
        }
    }
}
