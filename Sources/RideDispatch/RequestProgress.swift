/// Where an unfinished request stands.
public enum RequestProgress: Sendable, Equatable {
    case scheduled
    case waiting
    case offered(DriverID)
    case assigned(DriverID)
    case aboard(DriverID)
}
