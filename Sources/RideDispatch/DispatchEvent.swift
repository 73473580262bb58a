import City

/// A leg a driver is told to drive: a route from where they are (or will be, at `timeline`'s
/// departure) to their next stop or a repositioning target. Legs are numbered per driver so that
/// an arrival can be matched to the leg it ends.
public struct Leg: Sendable, Equatable, Codable {
    public let number: Int
    public let timeline: RouteTimeline
    /// The stop this leg ends at, or `nil` for repositioning.
    public let stop: Stop?
}

/// Everything that happens in dispatch, in order: what drivers and riders are told, what the
/// event bus publishes, and what KPIs and invariant checks are computed from.
public enum DispatchEvent: Sendable, Equatable {
    case requested(RequestID, RideRequest, Quote)
    case scheduled(RequestID, pickupAt: Double)
    case offered(RequestID, DriverID, expires: Double, pickupSeconds: Double)
    case declined(RequestID, DriverID, timedOut: Bool)
    case matched(RequestID, DriverID, pickupSeconds: Double)
    /// A matched request goes back to matching (its driver cancelled or went offline).
    case requeued(RequestID, DriverID, reason: String)
    case drive(DriverID, Leg)
    /// The driver is to stop driving leg `number` (its ride was cancelled, or they went offline)
    /// and has no new leg.
    case legCancelled(DriverID, leg: Int)
    case pickedUp(RequestID, DriverID)
    case finished(RequestID, RequestOutcome, DriverID?)
    /// The request left for another shard (sharded dispatch), which owns it from then on: not an
    /// ending — the request ends once, at the shard that has it last.
    case handedOut(RequestID, shard: Int)
    case driverState(DriverID, DriverState)
    case surge(zone: Int, multiplier: Double)
}

/// A dispatch event and the simulated time it happened at.
public struct TimedDispatchEvent: Sendable, Equatable {
    public let time: Double
    public let event: DispatchEvent
}

/// A command dispatch refused, with why: the command is ignored, the state unchanged.
public struct DispatchRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }

    public init(reason: String) { self.reason = reason }
}
