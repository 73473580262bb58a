import AppRuntime

/// An app a host starts at a simulated time (a driver at the start, a rider when they ask).
public struct ScheduledApp: Sendable {
    /// Simulated seconds when the app starts.
    public let at: Double
    /// Makes the app, its clock at the given time, running beside the given actor (its host).
    public let make: @Sendable (_ time: Double, _ host: any Actor) -> any HostedApp

    public init(at: Double, make: @escaping @Sendable (_ time: Double, _ host: any Actor) -> any HostedApp) {
        self.at = at
        self.make = make
    }
}
