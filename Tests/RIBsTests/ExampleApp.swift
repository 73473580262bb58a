import RIBs

// A small app in the shape of the rider app's top: Root routes between LoggedOut and LoggedIn
// following business logic. LoggedOut talks upward through a listener that Root's interactor
// implements; LoggedIn reads the session downward through a stream its parent's component owns.

/// The service layer: the only thing that changes the session stream.
final class AuthService {
    let session = ModelStream<String?>(nil)
    func signIn(_ name: String) { session.send(name) }
    func signOut() { session.send(nil) }
}

// MARK: Root

final class RootComponent: Component<EmptyDependency>, LoggedOutDependency, LoggedInDependency {
    var authService: AuthService { shared { AuthService() } }
    var session: ModelStream<String?> { authService.session }
}

protocol RootRouting: AnyObject {
    func routeToLoggedIn()
    func routeToLoggedOut()
}

final class RootInteractor: Interactor, LoggedOutListener {
    weak var router: (any RootRouting)?
    let auth: AuthService
    private(set) var routed: [String] = []

    init(auth: AuthService) {
        self.auth = auth
    }

    override func didBecomeActive() {
        bindToActivePeriod(
            auth.session.observe { [weak self] name in
                guard let self else { return }
                if name == nil {
                    routed.append("loggedOut")
                    router?.routeToLoggedOut()
                } else {
                    routed.append("loggedIn")
                    router?.routeToLoggedIn()
                }
            })
    }

    func didSignIn(as name: String) {
        auth.signIn(name)
    }
}

final class RootRouter: LaunchRouter<RootInteractor>, RootRouting {
    private let loggedOutBuilder: LoggedOutBuilder
    private let loggedInBuilder: LoggedInBuilder
    private(set) var current: (any Routing)?

    init(interactor: RootInteractor, loggedOut: LoggedOutBuilder, loggedIn: LoggedInBuilder) {
        loggedOutBuilder = loggedOut
        loggedInBuilder = loggedIn
        super.init(interactor: interactor)
        interactor.router = self
    }

    func routeToLoggedOut() {
        guard !(current is LoggedOutRouter) else { return }
        if let current { detachChild(current) }
        let child = loggedOutBuilder.build(listener: interactor)
        current = child
        attachChild(child)
    }

    func routeToLoggedIn() {
        guard !(current is LoggedInRouter) else { return }
        if let current { detachChild(current) }
        let child = loggedInBuilder.build()
        current = child
        attachChild(child)
    }
}

struct RootBuilder: Builder {
    let dependency: EmptyDependency

    func build() -> RootRouter {
        let component = RootComponent(dependency: dependency)
        let interactor = RootInteractor(auth: component.authService)
        return RootRouter(
            interactor: interactor,
            loggedOut: LoggedOutBuilder(dependency: component),
            loggedIn: LoggedInBuilder(dependency: component))
    }
}

// MARK: LoggedOut

protocol LoggedOutDependency: Dependency {}

protocol LoggedOutListener: AnyObject {
    func didSignIn(as name: String)
}

final class LoggedOutInteractor: Interactor {
    weak var listener: (any LoggedOutListener)?

    /// What the sign-in view's button does.
    func signInTapped(name: String) {
        listener?.didSignIn(as: name)
    }
}

final class LoggedOutRouter: Router<LoggedOutInteractor> {}

struct LoggedOutBuilder: Builder {
    let dependency: any LoggedOutDependency

    func build(listener: any LoggedOutListener) -> LoggedOutRouter {
        let interactor = LoggedOutInteractor()
        interactor.listener = listener
        return LoggedOutRouter(interactor: interactor)
    }
}

// MARK: LoggedIn

protocol LoggedInDependency: Dependency {
    var session: ModelStream<String?> { get }
}

final class LoggedInInteractor: Interactor {
    let session: ModelStream<String?>
    private(set) var greeting = ""

    init(session: ModelStream<String?>) {
        self.session = session
    }

    override func didBecomeActive() {
        bindToActivePeriod(
            session.observe { [weak self] name in
                self?.greeting = name.map { "Hello, \($0)" } ?? ""
            })
    }
}

final class LoggedInRouter: Router<LoggedInInteractor> {}

struct LoggedInBuilder: Builder {
    let dependency: any LoggedInDependency

    func build() -> LoggedInRouter {
        LoggedInRouter(interactor: LoggedInInteractor(session: dependency.session))
    }
}
