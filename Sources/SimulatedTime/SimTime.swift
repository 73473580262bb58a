/// A moment of simulated time: seconds since the run's start. The one type every part uses for
/// it, with the one rule by which it crosses the wire (whole milliseconds, rounded to nearest).
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since the run's start.
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    /// The run's start.
    public static let zero = SimTime(seconds: 0)

    /// A time as the wire carries it (`*_ms` fields: milliseconds since the run's start).
    public init(wireMilliseconds: Int64) { seconds = Double(wireMilliseconds) / 1_000 }

    /// This time as the wire carries it: whole milliseconds, rounded to nearest.
    public var wireMilliseconds: Int64 { Int64((seconds * 1_000).rounded()) }

    public static func < (a: SimTime, b: SimTime) -> Bool { a.seconds < b.seconds }
    public static func + (time: SimTime, duration: SimDuration) -> SimTime { SimTime(seconds: time.seconds + duration.seconds) }
    public static func - (time: SimTime, duration: SimDuration) -> SimTime { SimTime(seconds: time.seconds - duration.seconds) }
    public static func - (a: SimTime, b: SimTime) -> SimDuration { SimDuration(seconds: a.seconds - b.seconds) }

    /// `hh:mm:ss` since the start, the way the monitor and summaries show it.
    public var description: String {
        let whole = Int(seconds.rounded(.down))
        let (hours, minutes, secs) = (whole / 3_600, (whole % 3_600) / 60, whole % 60)
        return hours > 0 ? "\(hours):\(pad(minutes)):\(pad(secs))" : "\(minutes):\(pad(secs))"
    }

    private func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// A length of simulated time.
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    public static let zero = SimDuration(seconds: 0)

    public static func seconds(_ seconds: Double) -> SimDuration { SimDuration(seconds: seconds) }

    /// A duration as the wire carries it (`*_ms` fields such as a lag).
    public init(wireMilliseconds: Int64) { seconds = Double(wireMilliseconds) / 1_000 }

    /// This duration as the wire carries it: whole milliseconds, rounded to nearest.
    public var wireMilliseconds: Int64 { Int64((seconds * 1_000).rounded()) }

    public static func < (a: SimDuration, b: SimDuration) -> Bool { a.seconds < b.seconds }
    public static func + (a: SimDuration, b: SimDuration) -> SimDuration { SimDuration(seconds: a.seconds + b.seconds) }
    public static func - (a: SimDuration, b: SimDuration) -> SimDuration { SimDuration(seconds: a.seconds - b.seconds) }
    public static func * (a: SimDuration, factor: Double) -> SimDuration { SimDuration(seconds: a.seconds * factor) }

    public var description: String { "\(seconds) s" }
}
