import SimulatedTime

/// One window of virtual time, `[start, end)`: every participant handles every input and timer
/// before `end` and reports the window done before the next one opens.
///
/// A window is never longer than the lookahead (the network latency): a message sent at `t ≥ start`
/// is delivered at `t + latency ≥ end`, in a later window, so nothing a participant receives
/// while it works through a window can belong to that window.
public struct Window: Hashable, Sendable, CustomStringConvertible {
    /// 1 for the first window, then +1 for each window opened.
    public var index: UInt64
    public var start: SimTime
    public var end: SimTime

    public init(index: UInt64, start: SimTime, end: SimTime) {
        precondition(start < end, "a window ends after it starts")
        self.index = index
        self.start = start
        self.end = end
    }

    /// Whether `time` falls in this window.
    public func contains(_ time: SimTime) -> Bool { start <= time && time < end }

    public var description: String { "window \(index) [\(start.wireMilliseconds), \(end.wireMilliseconds)) ms" }
}
