import RIBs

/// How the root changes the tree: signed out or signed in.
protocol RiderRootRouting: AnyObject {
    func routeToLoggedOut()
    func routeToLoggedIn()
}

/// Routes between LoggedOut and LoggedIn, following the session (viewless).
final class RiderRootInteractor: Interactor, LoggedOutListener {
    weak var router: (any RiderRootRouting)?
    private let auth: AuthService

    init(auth: AuthService) {
        self.auth = auth
    }

    override func didBecomeActive() {
        bindToActivePeriod(
            auth.session.observe { [unowned self] name in
                if name == nil { self.router?.routeToLoggedOut() } else { self.router?.routeToLoggedIn() }
            })
    }

    func signIn(as name: String) {
        auth.signIn(as: name)
    }
}
