import AppRuntime
import RIBs

/// What every RIB of the rider app may need: the link to dispatch, the services, the flags.
final class RiderRootComponent: Component<EmptyDependency>, LoggedOutDependency, LoggedInDependency {
    let link: AppLink
    let auth = AuthService()
    let ride: RideService
    let flags: FeatureFlags
    let services: RiderServices

    init(link: AppLink, profile: RiderProfile, flags: FeatureFlags, faults: PluginFaults) {
        self.link = link
        self.flags = flags
        ride = RideService(riderID: profile.id, link: link, scheduledPickup: profile.scheduledPickup)
        services = RiderServices(
            ride: ride, social: SocialService(riderID: profile.id, link: link),
            contacts: RiderContacts(
                rider: profile.number, cityRiders: profile.cityRiders, seed: profile.seed, openedAt: profile.requestAt),
            link: link, flags: flags, faults: faults)
        super.init(dependency: EmptyDependency())
    }
}

/// Builds the rider app's tree.
final class RiderRootBuilder: Builder<EmptyDependency> {
    func build(component: RiderRootComponent) -> RiderRootRouter {
        RiderRootRouter(
            interactor: RiderRootInteractor(auth: component.auth),
            loggedOut: LoggedOutBuilder(dependency: component), loggedIn: LoggedInBuilder(dependency: component))
    }
}
