/// When a moving car reports where it is: at most once in each period of simulated time, the
/// periods counted from time 0 alike for every car (with 15 s: at 0:15, 0:30, 0:45 …), plus
/// wherever a leg ends.
///
/// A fleet's reports fall on the same instants instead of one car's somewhere in every window:
/// in virtual time a process whose only business is a report has to work through a window of
/// its own, so 200 cars reporting each 15 s at their own phases kept the driver process busy in
/// every window of grid-sumo's run (and 10 % more windows). The load on dispatch is the same
/// number of reports; nothing dispatch decides depends on their phase.
public struct LocationCadence: Sendable, Equatable {
    /// The period in whole simulated milliseconds (at least one).
    public let periodMs: Int64

    /// A report every `seconds` of simulated time; nil for none (nil, zero or negative).
    public init?(every seconds: Double?) {
        guard let seconds, seconds > 0, seconds.isFinite else { return nil }
        periodMs = max(1, Int64((seconds * 1_000).rounded()))
    }

    /// The period `time` falls in (periods start at multiples of the period; a time within half
    /// a millisecond of a start counts as in the period it starts).
    public func period(of time: Double) -> Int64 {
        let milliseconds = Int64((time * 1_000).rounded())
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: periodMs)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// The start of the first period after the one `time` is in: always later than `time`.
    public func nextReport(after time: Double) -> Double {
        Double((period(of: time) + 1) * periodMs) / 1_000
    }
}
