import RIBs

/// What LoggedOut tells its parent.
protocol LoggedOutListener: AnyObject {
    func signIn(as name: String)
}

/// What LoggedOut's interactor asks of its presenter.
protocol LoggedOutPresentable: AnyObject {
    var listener: (any LoggedOutPresentableListener)? { get set }
}

/// Hands the name the user typed to the parent, which owns the session.
final class LoggedOutInteractor: PresentableInteractor<any LoggedOutPresentable>, LoggedOutPresentableListener {
    weak var listener: (any LoggedOutListener)?

    override func didBecomeActive() {
        presenter.listener = self
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func requestSignIn(as name: String) {
        listener?.signIn(as: name)
    }
}
