import AppRuntime
import RIBs

/// What every RIB of the rider app may need: the link to dispatch, the services, the flags.
final class RiderRootComponent: Component<EmptyDependency>, LoggedOutDependency, LoggedInDependency {
    let link: AppLink
    let auth = AuthService()
    let ride: RideService
    let flags: FeatureFlags
    let contacts: RiderContacts
    let faults: PluginFaults
    /// The rider's dealings with other riders, once there are any (see ``social``).
    private(set) var madeSocial: SocialService?

    init(link: AppLink, profile: RiderProfile, flags: FeatureFlags, faults: PluginFaults) {
        self.link = link
        self.flags = flags
        self.faults = faults
        ride = RideService(riderID: profile.id, link: link, scheduledPickup: profile.scheduledPickup)
        contacts = RiderContacts(
            rider: profile.number, cityRiders: profile.cityRiders, seed: profile.seed, openedAt: profile.requestAt)
        super.init(dependency: EmptyDependency())
    }

    /// What plugins are given.
    var services: RiderServices { RiderServices(of: self) }

    /// The rider's dealings with other riders, made when first needed: most riders never share a
    /// ride or split a fare, and the service's five streams are about 400 bytes an app.
    var social: SocialService {
        if let madeSocial { return madeSocial }
        let made = SocialService(riderID: ride.riderID, link: link)
        madeSocial = made
        return made
    }
}

/// Builds the rider app's tree.
struct RiderRootBuilder: Builder {
    let dependency: EmptyDependency

    func build(component: RiderRootComponent) -> RiderRootRouter {
        RiderRootRouter(
            interactor: RiderRootInteractor(auth: component.auth),
            loggedOut: LoggedOutBuilder(dependency: component), loggedIn: LoggedInBuilder(dependency: component))
    }
}
