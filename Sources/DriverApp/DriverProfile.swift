/// Who a simulated driver is: where they start, when they work, how they answer offers.
public struct DriverProfile: Sendable, Equatable {
    public var id: String
    /// The road-graph node where the car starts.
    public var startNode: Int
    /// Simulated seconds when the shift starts and ends; a driver ends the ride in progress first.
    public var shiftStart: Double
    public var shiftEnd: Double
    /// Chance of accepting an offer.
    public var acceptance: Double
    /// Seconds taken to answer an offer (past the offer's expiry means letting it expire).
    public var responseSeconds: Double
    /// Seeds the person's choices.
    public var seed: UInt64
    /// Simulated seconds between the app's location reports while the car moves; nil: none.
    public var locationEvery: Double?

    /// When the app's location reports go (nil: none).
    var locationCadence: LocationCadence? { LocationCadence(every: locationEvery) }

    public init(
        id: String, startNode: Int, shiftStart: Double = 0, shiftEnd: Double = .infinity,
        acceptance: Double = 1, responseSeconds: Double = 0, seed: UInt64 = 1, locationEvery: Double? = 15
    ) {
        self.id = id
        self.startNode = startNode
        self.shiftStart = shiftStart
        self.shiftEnd = shiftEnd
        self.acceptance = acceptance
        self.responseSeconds = responseSeconds
        self.seed = seed
        self.locationEvery = locationEvery
    }
}
