import AppRuntime
import RIBs

/// What every RIB of the rider app may need: the link to dispatch, the services, the flags.
final class RiderRootComponent: Component<EmptyDependency>, LoggedOutDependency, LoggedInDependency {
    let link: AppLink
    let auth = AuthService()
    let ride: RideService
    let flags: FeatureFlags

    init(link: AppLink, profile: RiderProfile, flags: FeatureFlags) {
        self.link = link
        self.flags = flags
        ride = RideService(riderID: profile.id, link: link, scheduledPickup: profile.scheduledPickup)
        super.init(dependency: EmptyDependency())
    }
}

protocol RiderRootRouting: AnyObject {
    func routeToLoggedOut()
    func routeToLoggedIn()
}

/// Routes between LoggedOut and LoggedIn, following the session.
final class RiderRootInteractor: Interactor, LoggedOutListener {
    weak var router: (any RiderRootRouting)?
    private let auth: AuthService

    init(auth: AuthService) {
        self.auth = auth
    }

    override func didBecomeActive() {
        bindToActivePeriod(
            auth.session.observe { [weak self] name in
                if name == nil { self?.router?.routeToLoggedOut() } else { self?.router?.routeToLoggedIn() }
            })
    }

    func signIn(as name: String) {
        auth.signIn(as: name)
    }
}

/// The rider app's root.
final class RiderRootRouter: LaunchRouter<RiderRootInteractor>, RiderRootRouting {
    private let loggedOut: LoggedOutBuilder
    private let loggedIn: LoggedInBuilder

    init(interactor: RiderRootInteractor, loggedOut: LoggedOutBuilder, loggedIn: LoggedInBuilder) {
        self.loggedOut = loggedOut
        self.loggedIn = loggedIn
        super.init(interactor: interactor)
        interactor.router = self
    }

    override var name: String { "Root" }

    func routeToLoggedOut() {
        show(LoggedOutRouter.self) { loggedOut.build(listener: interactor) }
    }

    func routeToLoggedIn() {
        show(LoggedInRouter.self) { loggedIn.build() }
    }
}

final class RiderRootBuilder: Builder<EmptyDependency> {
    func build(component: RiderRootComponent) -> RiderRootRouter {
        RiderRootRouter(
            interactor: RiderRootInteractor(auth: component.auth),
            loggedOut: LoggedOutBuilder(dependency: component), loggedIn: LoggedInBuilder(dependency: component))
    }
}
