import RIBs

/// The rider app's root: LoggedOut or LoggedIn below it.
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
