import Wire

/// A rider as the desk knows it: the session its messages come through, and the last trip update
/// sent to it (sent again when its session comes back on a new socket).
struct RiderLine {
    var session: String?
    var lastUpdate: TripUpdate?
}

/// A driver as the desk knows it: the session its messages come through, the last leg sent to it
/// (sent again after a reconnect, or when it stays open well past its arrival), and when that leg
/// was last sent again.
struct DriverLine {
    var session: String?
    var lastLeg: DriveTo?
    var legResent: Double?
}
