/// Topics on the event bus. Subscribers filter by prefix, so names go from general to specific.
public enum Topic {
    /// Dispatch state changes: `dispatch.request`, `dispatch.driver`, `dispatch.session`, `dispatch.surge`.
    public static let dispatch = "dispatch."
    public static let dispatchRequest = "dispatch.request"
    public static let dispatchDriver = "dispatch.driver"
    public static let dispatchSession = "dispatch.session"
    public static let dispatchSurge = "dispatch.surge"
    /// Vehicle positions, high volume: subscribe only if you draw a map.
    public static let location = "location"
    /// Per-process health: `status.<process id>`.
    public static let status = "status."
    /// Coordinator control: `control.clock`, `control.stop`, `control.ready`.
    public static let control = "control."
    public static let clock = "control.clock"
    public static let stop = "control.stop"
    public static let ready = "control.ready"
    /// Virtual time: the coordinator's window openings, and the participants' reports.
    public static let windowOpen = "control.window-open"
    public static let windowDone = "control.window-done"

    public static func status(of processID: String) -> String { status + processID }
}
