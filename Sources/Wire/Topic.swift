/// Topics on the event bus. Subscribers filter by prefix, so names go from general to specific.
/// Who may publish each is ``BusPolicy``'s to say.
public enum Topic {
    /// Dispatch state changes: `dispatch.request`, `dispatch.driver`, `dispatch.session`, `dispatch.surge`.
    public static let dispatch = "dispatch."
    public static let dispatchRequest = "dispatch.request"
    public static let dispatchDriver = "dispatch.driver"
    public static let dispatchSession = "dispatch.session"
    public static let dispatchSurge = "dispatch.surge"
    /// Per-process health: `status.<process id>`.
    public static let status = "status."
    /// Coordinator control: `control.ready` (from every process). In virtual time the window
    /// openings, reports and hellos go over the coordinator's window link under these topics
    /// (with dispatch's events, under their own topics, before its reports).
    public static let control = "control."
    public static let ready = "control.ready"
    public static let windowOpen = "control.window-open"
    public static let windowDone = "control.window-done"
    public static let windowHello = "control.window-hello"
    /// A city across hosts: a process started on another host asks to join
    /// (`control.join-request`), the coordinator answers it on `control.join-reply.<process id>`,
    /// tells it to stop on `control.stop.<process id>`, and hears it leave on `control.exit`.
    public static let joinRequest = "control.join-request"
    public static let joinReply = "control.join-reply."
    public static let stop = "control.stop."
    public static let exit = "control.exit"
    public static func joinReply(to processID: String) -> String { joinReply + processID }
    public static func stop(of processID: String) -> String { stop + processID }
    /// The coordinator's notices: processes ready, restarted, killed, finished.
    public static let notice = "control.notice"
    /// Stress mode's load on the bus itself (`chaos.flood`), from the coordinator, read by no one.
    public static let chaos = "chaos."

    public static func status(of processID: String) -> String { status + processID }

    /// A monitor asks for one app's live RIB tree (`InspectApp`); the host that runs it answers on
    /// `inspect.reply.<its process id>` (`AppInspection`).
    public static let inspectRequest = "inspect.request"
    public static let inspectReply = "inspect.reply."
    public static func inspectReply(of processID: String) -> String { inspectReply + processID }
}
