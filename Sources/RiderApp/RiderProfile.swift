import City
import Wire

/// Who a simulated rider is and what ride they want: when they open the app, from where to where,
/// which product, when to be picked up, and how long they wait for a pickup before cancelling.
public struct RiderProfile: Sendable, Equatable {
    public var id: String
    public var name: String
    /// Simulated seconds when the rider asks for the ride.
    public var requestAt: Double
    public var pickup: GeoPoint
    public var dropoff: GeoPoint
    public var product: Wire.Product
    /// For a ride booked ahead: the pickup time wanted.
    public var scheduledPickup: Double?
    /// Seconds the rider waits for a pickup (from the request, or from the booked time) before
    /// cancelling; `nil`: for ever.
    public var patience: Double?
    /// Seeds the person's choices (the rating, whom to share with, how to answer invitations).
    public var seed: UInt64
    /// The rider's number among the city's riders, and how many riders the city has: who their
    /// contacts among the city's riders are (0 riders: none).
    public var number: Int
    public var cityRiders: Int

    public init(
        id: String, name: String, requestAt: Double, pickup: GeoPoint, dropoff: GeoPoint, product: Wire.Product = .uberX,
        scheduledPickup: Double? = nil, patience: Double? = nil, seed: UInt64 = 1, number: Int = 0, cityRiders: Int = 0
    ) {
        self.id = id
        self.name = name
        self.requestAt = requestAt
        self.pickup = pickup
        self.dropoff = dropoff
        self.product = product
        self.scheduledPickup = scheduledPickup
        self.patience = patience
        self.seed = seed
        self.number = number
        self.cityRiders = cityRiders
    }
}
