import RIBs
import Wire

/// What an app gives its host after each input: what to send, and whether it is done.
public struct AppOutput: Sendable, Equatable {
    public var messages: [AppMessage]
    /// The app has nothing more to do (a rider whose ride ended): the host releases it.
    public var finished: Bool
    /// The simulated time at which the app next wants a tick (its person will act, its car will
    /// arrive), if it knows one; the host also ticks every app now and then.
    public var wakeAt: Double?
    /// Optional features the app switched off since its last output, because they failed (the
    /// kill switch): the host counts them for its health report.
    public var switchedOff: [String]

    public init(messages: [AppMessage], finished: Bool = false, wakeAt: Double? = nil, switchedOff: [String] = []) {
        self.messages = messages
        self.finished = finished
        self.wakeAt = wakeAt
        self.switchedOff = switchedOff
    }
}

/// How an app's RIB tree is doing: for the host's health report and leak checks.
public struct AppHealth: Sendable, Equatable {
    /// RIBs that were detached and did not go away within the leak budget.
    public var leaks: Int
    /// RIBs attached now.
    public var ribs: Int
    /// User actions that reached a view nobody listened to.
    public var droppedActions: Int
    /// What the app's deepest screen shows.
    public var screen: String

    public init(leaks: Int, ribs: Int, droppedActions: Int, screen: String) {
        self.leaks = leaks
        self.ribs = ribs
        self.droppedActions = droppedActions
        self.screen = screen
    }
}

/// An app a rider or driver process hosts: a RIB tree on its own actor, driven by the host with
/// simulated time, the messages dispatch sends it, and ticks (when its simulated person acts).
public protocol HostedApp: Actor {
    /// The rider or driver id the app speaks for; dispatch's messages carry it.
    nonisolated var id: String { get }
    /// Launches the tree.
    func start(at time: Double) -> AppOutput
    /// A message from dispatch for this app, or the reply to one of its requests.
    func receive(_ body: Envelope.OneOf_Body, at time: Double) -> AppOutput
    /// The reply to `request`, one of this app's requests (or the error that says it failed).
    func receive(_ reply: Envelope.OneOf_Body, answering request: Envelope.OneOf_Body, at time: Double) -> AppOutput
    /// Time passes; the app's person looks at the screen and perhaps acts.
    func tick(at time: Double) -> AppOutput
    /// The host is shutting down: say goodbye the way the app would (a driver goes offline).
    func stop(at time: Double) -> AppOutput
    /// The tree's health now.
    func health() -> AppHealth
    /// How many of its RIBs leaked so far (``health()``'s `leaks`, without a snapshot of the tree).
    func leakCount() -> Int
    /// The tree as it is now (the web monitor's RIB tree viewer).
    func tree() -> RIBTreeSnapshot
}

extension HostedApp {
    public func leakCount() -> Int { health().leaks }

    /// An app that does not care which request a reply answers takes it like any message.
    public func receive(_ reply: Envelope.OneOf_Body, answering request: Envelope.OneOf_Body, at time: Double) -> AppOutput {
        receive(reply, at: time)
    }
}
