import AppRuntime
import City
import RIBs
import Wire

/// One driver's app: the RIB tree (Root → Offline / Online → Idle, Offer, EnRoute, OnTrip) on its
/// own actor, with the simulated person who drives it through its views.
public actor DriverApp: HostedApp {
    public nonisolated let id: String
    /// The actor whose executor this app runs on: its host's, so that the host's calls into its
    /// apps stay on one thread (see ``AppRuntime/AppQueue``).
    private nonisolated let beside: any Actor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { beside.unownedExecutor }
    private let component: DriverRootComponent
    private let app: AppTree
    private var person: DriverPerson

    /// An app for `profile` on the city's `graph`, its clock at `time`, running on `host`'s
    /// executor (its own if none is given).
    public init(profile: DriverProfile, graph: RoadGraph, at time: Double, beside host: (any Actor)? = nil) {
        id = profile.id
        beside = host ?? AppQueue()
        let link = AppLink(time: time)
        component = DriverRootComponent(link: link, profile: profile, graph: graph)
        app = AppTree(root: DriverRootBuilder(dependency: EmptyDependency()).build(component: component), link: link)
        person = DriverPerson(profile: profile)
    }

    public func start(at time: Double) -> AppOutput {
        app.launch(at: time)
        return tick(at: time)
    }

    public func receive(_ body: Envelope.OneOf_Body, at time: Double) -> AppOutput {
        app.link.advance(to: time)
        component.work.receive(body)
        // The person sees at once what the screen now shows (an offer to think over).
        return tick(at: time)
    }

    public func tick(at time: Double) -> AppOutput {
        app.link.advance(to: time)
        person.act(on: app.root, at: time)
        // While the car moves: its arrival, and its next location update.
        let vehicle = component.vehicle
        let report = vehicle.isMoving ? component.profile.locationCadence?.nextReport(after: time) : nil
        let wake = [person.nextAction(after: time), vehicle.arrival, report].compactMap { $0 }.min()
        return app.output(wakeAt: wake)
    }

    public func stop(at time: Double) -> AppOutput {
        app.link.advance(to: time)
        component.work.goOffline(reason: "the app closed")
        return app.output(finished: true)
    }

    public func health() -> AppHealth { app.health() }

    public func leakCount() -> Int { app.leakCount }

    /// The tree as it is now, for tests and the monitor.
    public func tree() -> RIBTreeSnapshot { app.root.snapshot() }

    /// Where the car is.
    public func position() -> GeoPoint { component.vehicle.position.value }

}
