import City

/// One ride wanted: when (simulated seconds from the start of the run), from where, to where.
public struct DemandTrip: Sendable, Equatable {
    public var time: Double
    public var origin: GeoPoint
    public var destination: GeoPoint

    public init(time: Double, origin: GeoPoint, destination: GeoPoint) {
        self.time = time
        self.origin = origin
        self.destination = destination
    }
}
