import AppRuntime
import City
import RIBs
import Wire

/// One rider's app: the RIB tree (Root → LoggedOut / LoggedIn → Ride → Request {LocationEditor,
/// ProductSelection, Confirmation} / OnTrip → Rating, with optional plugins) on its own actor, and
/// the simulated person who uses it. Finished when the ride has ended (and been rated).
public actor RiderApp: HostedApp {
    public nonisolated let id: String
    /// The actor whose executor this app runs on: its host's, so that the host's calls into its
    /// apps stay on one thread (see ``AppRuntime/AppQueue``).
    private nonisolated let beside: any Actor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { beside.unownedExecutor }
    private let component: RiderRootComponent
    private let app: AppTree
    private var person: RiderPerson

    /// An app for `profile`, with optional features as `features` says, its clock at `time`,
    /// running on `host`'s executor (its own if none is given).
    public init(profile: RiderProfile, features: [String: Bool] = [:], at time: Double, beside host: (any Actor)? = nil) {
        id = profile.id
        beside = host ?? AppQueue()
        let link = AppLink(time: time)
        component = RiderRootComponent(link: link, profile: profile, flags: FeatureFlags(features))
        app = AppTree(root: RiderRootBuilder(dependency: EmptyDependency()).build(component: component), link: link)
        person = RiderPerson(profile: profile)
    }

    public func start(at time: Double) -> AppOutput {
        app.launch(at: time)
        return tick(at: time)
    }

    public func receive(_ body: Envelope.OneOf_Body, at time: Double) -> AppOutput {
        app.link.advance(to: time)
        component.ride.receive(body)
        // The person reacts at once to what the screen now shows (a quote, a trip ended).
        return tick(at: time)
    }

    public func tick(at time: Double) -> AppOutput {
        app.link.advance(to: time)
        person.act(on: app.root, at: time, requestedAt: component.ride.requestedAt)
        component.ride.askAgainIfSilent(at: time)
        let acting =
            component.ride.status.value.awaitingPickup
            ? person.nextAction(after: time, requestedAt: component.ride.requestedAt) : nil
        let wake = [acting, component.ride.askAgainAt].compactMap { $0 }.min()
        return app.output(finished: isFinished, wakeAt: wake)
    }

    public func stop(at time: Double) -> AppOutput {
        app.link.advance(to: time)
        component.ride.cancel(reason: "the app closed")
        return app.output(finished: true)
    }

    public func health() -> AppHealth { app.health() }

    /// How the ride ended, once it has.
    public func outcome() -> String? {
        let status = component.ride.status.value
        return status.isOver ? "\(status)" : nil
    }

    /// The tree as it is now, for tests and the monitor.
    public func tree() -> RIBTreeSnapshot { app.root.snapshot() }

    private var isFinished: Bool {
        let status = component.ride.status.value
        guard status.isOver else { return false }
        if case .completed = status { return component.ride.rating != nil }
        return true
    }
}
