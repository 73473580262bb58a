import RIBs

/// What LoggedOut needs from its parent: nothing yet.
protocol LoggedOutDependency: Dependency {}

/// Builds the sign-in screen.
struct LoggedOutBuilder: Builder {
    let dependency: any LoggedOutDependency

    func build(listener: any LoggedOutListener) -> LoggedOutRouter {
        let presenter = LoggedOutPresenter()
        let interactor = LoggedOutInteractor(presenter: presenter)
        interactor.listener = listener
        return LoggedOutRouter(interactor: interactor, view: presenter.view)
    }
}
