/// Where a driver is in their work, as dispatch sees it.
public enum DriverState: String, Sendable, Hashable, CaseIterable, Codable {
    /// Not working.
    case offline
    /// Online with nothing to do (possibly repositioning).
    case idle
    /// Online, considering an offer, nothing else to do.
    case offered
    /// Driving to pick a rider up, nobody aboard.
    case enRoute
    /// Carrying at least one rider.
    case onTrip
}
