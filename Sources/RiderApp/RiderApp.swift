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
    /// The switched-off features the host has been told of.
    private var reported: Set<String> = []

    /// An app for `profile`, with optional features as `features` says (and those in `faults`
    /// made to fail), its clock at `time`, running on `host`'s executor (its own if none is given).
    public init(
        profile: RiderProfile, features: [String: Bool] = [:], faults: PluginFaults = PluginFaults(), at time: Double,
        beside host: (any Actor)? = nil
    ) {
        id = profile.id
        beside = host ?? AppQueue()
        let link = AppLink(time: time)
        component = RiderRootComponent(link: link, profile: profile, flags: FeatureFlags(features), faults: faults)
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
        if SocialService.concerns(body) { component.social.receive(body) }
        // The person reacts at once to what the screen now shows (a quote, a trip ended).
        return tick(at: time)
    }

    public func receive(_ reply: Envelope.OneOf_Body, answering request: Envelope.OneOf_Body, at time: Double) -> AppOutput {
        guard SocialService.isCommand(request) else { return receive(reply, at: time) }
        // The answer to a share, an invitation or an answer changes nothing (a refusal — the
        // invitation lapsed — least of all the rider's own ride, which an error would end).
        return tick(at: time)
    }

    public func tick(at time: Double) -> AppOutput {
        app.link.advance(to: time)
        let social = component.madeSocial
        social?.lapse(at: time)
        person.act(on: app.root, at: time, requestedAt: component.ride.requestedAt)
        component.ride.askAgainIfSilent(at: time)
        let acting =
            component.ride.status.value.awaitingPickup
            ? person.nextAction(after: time, requestedAt: component.ride.requestedAt) : nil
        // Invitations are answered through Split Fare's inbox: without it the person never sees
        // them (they lapse), and must not be woken for them.
        let answering =
            component.flags.isEnabled(SplitFareBuilder.feature)
            ? social.flatMap { person.nextAnswer(to: $0.invitations.value, after: time) } : nil
        let wake = [acting, component.ride.askAgainAt, answering, splitGivenUpAt].compactMap { $0 }.min()
        return output(finished: isFinished, wakeAt: wake)
    }

    public func stop(at time: Double) -> AppOutput {
        app.link.advance(to: time)
        component.ride.cancel(reason: "the app closed")
        return output(finished: true)
    }

    /// The tree's output, with the features switched off since the last one.
    private func output(finished: Bool, wakeAt wake: Double? = nil) -> AppOutput {
        var output = app.output(finished: finished, wakeAt: wake)
        let switchedOff = component.flags.switchedOff
        if switchedOff.count > reported.count {
            // Features only ever switch off, so the new ones are those not reported yet.
            output.switchedOff = switchedOff.keys.filter { !reported.contains($0) }.sorted()
            reported.formUnion(output.switchedOff)
        }
        return output
    }

    public func health() -> AppHealth { app.health() }

    public func leakCount() -> Int { app.leakCount }

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
        if case .completed = status {
            // Waiting for the fare's split, if it asked others to split it, up to a minute.
            return component.ride.rating != nil && splitGivenUpAt.map { app.link.now >= $0 } ?? true
        }
        return true
    }

    /// Whether the rider invited others to split the fare and has not heard how it was split.
    private var awaitingSplit: Bool {
        guard let social = component.madeSocial else { return false }
        return !social.invited.value.isEmpty && social.fareSplit.value == nil
    }

    /// How long after the ride's end the app waits for the fare's split (it may have been lost).
    private static let splitPatience: Double = 60

    /// When the app stops waiting for the fare's split, if it is waiting for one.
    private var splitGivenUpAt: Double? {
        guard awaitingSplit, case .completed = component.ride.status.value, let ended = component.ride.lastHeard else {
            return nil
        }
        return ended + Self.splitPatience
    }
}
