/// What a rider asks for: a ride between two road nodes, alone or shared, now or later.
public struct RideRequest: Sendable, Equatable, Codable {
    public enum Product: String, Sendable, Hashable, CaseIterable, Codable {
        /// A vehicle to oneself.
        case standard
        /// A shared vehicle, cheaper, with a bounded detour.
        case pool
    }

    public let id: RequestID
    public let rider: Int
    public let origin: Int
    public let destination: Int
    public let product: Product
    /// For a scheduled ride, the simulated time the rider wants to be picked up.
    public let pickupAt: Double?

    public init(id: RequestID, rider: Int, origin: Int, destination: Int, product: Product = .standard, pickupAt: Double? = nil) {
        self.id = id
        self.rider = rider
        self.origin = origin
        self.destination = destination
        self.product = product
        self.pickupAt = pickupAt
    }
}
