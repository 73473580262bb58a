import RIBs

protocol LoggedOutDependency: Dependency {}

protocol LoggedOutListener: AnyObject {
    func signIn(as name: String)
}

/// The sign-in screen.
final class LoggedOutView: View<String, LoggedOutView.Action> {
    enum Action { case signIn(name: String) }
}

final class LoggedOutInteractor: ViewInteractor<String, LoggedOutView.Action> {
    weak var listener: (any LoggedOutListener)?

    override func handle(_ action: LoggedOutView.Action) {
        switch action {
        case .signIn(let name): listener?.signIn(as: name)
        }
    }
}

final class LoggedOutRouter: ViewableRouter<LoggedOutInteractor, LoggedOutView> {}

final class LoggedOutBuilder: Builder<any LoggedOutDependency> {
    func build(listener: any LoggedOutListener) -> LoggedOutRouter {
        let view = LoggedOutView(showing: "Sign in · [name] [Continue]")
        let interactor = LoggedOutInteractor(presenter: view)
        interactor.listener = listener
        return LoggedOutRouter(interactor: interactor, view: view)
    }
}
