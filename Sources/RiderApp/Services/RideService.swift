import AppRuntime
import City
import RIBs
import SimulatedTime
import Wire

/// Where a ride is, as the rider app knows it.
enum RideStatus: Equatable {
    /// Locations and product being chosen.
    case drafting
    /// Asked for; dispatch has not acknowledged yet.
    case requesting
    /// Acknowledged; dispatch is looking for a driver.
    case matching
    case assigned(driver: String, pickupETA: UInt32)
    case arrived(driver: String)
    case onTrip(driver: String)
    case completed(fareCents: Int64)
    case cancelled(by: Party, reason: String)
    case rejected(reason: String)

    /// Whether a driver has the ride (the trip screens show it).
    var hasDriver: Bool {
        switch self {
        case .assigned, .arrived, .onTrip, .completed: true
        default: false
        }
    }

    /// Whether the ride has ended one way or another.
    var isOver: Bool {
        switch self {
        case .completed, .cancelled, .rejected: true
        default: false
        }
    }

    /// Whether the rider is still waiting to be picked up.
    var awaitingPickup: Bool {
        switch self {
        case .requesting, .matching, .assigned: true
        default: false
        }
    }
}

/// The ride being drafted: locations, and the product chosen.
struct RideDraft: Equatable {
    var pickup: GeoPoint?
    var dropoff: GeoPoint?
    var product: Wire.Product?
}

/// The trip service: asks dispatch for quotes and the ride, cancels and rates, and publishes what
/// dispatch answers as models on streams. Interactors change the ride only through it.
final class RideService {
    let riderID: String
    let draft = ModelStream(RideDraft())
    /// Quotes by product, as they arrive.
    let quotes = ModelStream(Quotes())
    let status = ModelStream(RideStatus.drafting)
    /// Simulated time the ride was asked for, and the stars given at the end.
    private(set) var requestedAt: Double?
    private(set) var rating: UInt32?
    private(set) var cancelAsked = false
    /// When dispatch last said anything about the ride.
    private(set) var lastHeard: Double?
    private let link: AppLink
    private let scheduledPickup: Double?

    init(riderID: String, link: AppLink, scheduledPickup: Double?) {
        self.riderID = riderID
        self.link = link
        self.scheduledPickup = scheduledPickup
    }

    /// The request id dispatch knows the ride by: one ride per rider app.
    var requestID: String { WireIDs.request(ofRider: riderID) }

    /// Sets where to be picked up and dropped off, and asks for quotes; only while drafting.
    func setLocations(pickup: GeoPoint, dropoff: GeoPoint) {
        guard status.value == .drafting else { return }
        draft.send(RideDraft(pickup: pickup, dropoff: dropoff, product: nil))
        for product in [Wire.Product.uberX, .pool] {
            link.request(
                .quoteRequest(
                    QuoteRequest.with {
                        $0.riderID = riderID
                        $0.pickup = LatLon(pickup)
                        $0.dropoff = LatLon(dropoff)
                        $0.product = product
                    }))
        }
    }

    /// Picks the product; only while drafting.
    func choose(_ product: Wire.Product) {
        guard status.value == .drafting else { return }
        var chosen = draft.value
        chosen.product = product
        draft.send(chosen)
    }

    func confirm() {
        guard status.value == .drafting, let pickup = draft.value.pickup, let dropoff = draft.value.dropoff,
            let product = draft.value.product
        else { return }
        requestedAt = link.now
        lastHeard = link.now
        status.send(.requesting)
        link.request(.rideRequest(rideRequest(pickup: pickup, dropoff: dropoff, product: product)))
    }

    /// The ride as asked for, made again from the draft (which stops changing once confirmed)
    /// rather than kept: thousands of waiting riders per process.
    private var asked: Wire.RideRequest? {
        guard requestedAt != nil, let pickup = draft.value.pickup, let dropoff = draft.value.dropoff,
            let product = draft.value.product
        else { return nil }
        return rideRequest(pickup: pickup, dropoff: dropoff, product: product)
    }

    private func rideRequest(pickup: GeoPoint, dropoff: GeoPoint, product: Wire.Product) -> Wire.RideRequest {
        Wire.RideRequest.with {
            $0.requestID = requestID
            $0.riderID = riderID
            $0.quoteID = quotes.value[product]?.quoteID ?? ""
            $0.pickup = LatLon(pickup)
            $0.dropoff = LatLon(dropoff)
            $0.product = product
            $0.seats = 1
            $0.scheduledPickup = scheduledPickup.map { SimTime(seconds: $0) }
        }
    }

    /// How long the ride may go without word from dispatch before the app asks where it stands:
    /// well past when the next change was due (a pickup, the end of the trip), or a quarter of an
    /// hour while it waits for a driver (dispatch says nothing while it looks for one).
    var silenceAllowed: Double {
        switch status.value {
        case .assigned(_, let eta): Double(eta) + 180
        case .onTrip: Double(quotes.value[draft.value.product ?? .uberX]?.tripDurationS ?? 600) * 1.5 + 180
        default: 900
        }
    }

    /// When the app will ask again if dispatch stays silent (nil: the ride is not under way).
    var askAgainAt: Double? {
        guard requestedAt != nil, !status.value.isOver, let lastHeard else { return nil }
        return lastHeard + silenceAllowed
    }

    /// Asks for the ride again (same request id) if dispatch has been silent past what the ride
    /// allows: a trip update lost on its way (dispatch answers with where the ride stands) would
    /// otherwise leave the app waiting for good.
    func askAgainIfSilent(at time: Double) {
        // Checked every tick: the request is made again only when it is due.
        guard let due = askAgainAt, time >= due, let asked else { return }
        lastHeard = time
        link.request(.rideRequest(asked))
    }

    /// Asks dispatch to cancel (once: dispatch answers with the trip update that ends the ride).
    func cancel(reason: String) {
        guard status.value.awaitingPickup || status.value == .drafting, !cancelAsked else { return }
        if status.value == .drafting {
            status.send(.cancelled(by: .rider, reason: reason))
            return
        }
        cancelAsked = true
        link.request(
            .cancelRide(
                CancelRide.with {
                    $0.requestID = requestID
                    $0.riderID = riderID
                    $0.reason = reason
                }))
    }

    func rate(stars: UInt32) {
        guard case .completed = status.value, rating == nil else { return }
        rating = stars
        link.request(
            .rateTrip(
                RateTrip.with {
                    $0.tripID = WireIDs.trip(ofRequest: requestID)
                    $0.riderID = riderID
                    $0.stars = stars
                }))
    }

    /// What dispatch said: replies to this app's requests, and trip updates.
    func receive(_ body: Envelope.OneOf_Body) {
        switch body {
        case .quote(let quote):
            var known = quotes.value
            known.insert(quote)
            quotes.send(known)
        case .requestReceived(let received) where received.requestID == requestID:
            lastHeard = link.now
            if status.value == .requesting { status.send(.matching) }
        case .tripUpdate(let update) where update.requestID == requestID:
            lastHeard = link.now
            apply(update)
        case .error(let error):
            // Refused before dispatch took the ride (no road, a position off the map, no reply):
            // the ride is over. Later refusals (a cancel that came too late) change nothing.
            if status.value == .drafting || status.value == .requesting {
                status.send(.rejected(reason: error.reason))
            }
        default:
            break
        }
    }

    private func apply(_ update: TripUpdate) {
        guard !status.value.isOver else { return }
        switch update.state {
        case .matching, .requested: status.send(.matching)
        case .driverAssigned: status.send(.assigned(driver: update.driverID, pickupETA: update.pickupEtaS))
        case .driverArrived: status.send(.arrived(driver: update.driverID))
        case .onTrip: status.send(.onTrip(driver: update.driverID))
        case .completed: status.send(.completed(fareCents: update.fareCents))
        case .cancelled: status.send(.cancelled(by: update.cancelledBy, reason: update.reason))
        case .rejected: status.send(.rejected(reason: update.reason))
        default: break
        }
    }
}
