import RIBs

/// What the user asked for on the sign-in screen.
protocol LoggedOutPresentableListener: AnyObject {
    func requestSignIn(as name: String)
}

/// Shows the sign-in form; passes the name on.
final class LoggedOutPresenter: Presenter<LoggedOutView>, LoggedOutPresentable {
    weak var listener: (any LoggedOutPresentableListener)?

    init() {
        super.init(view: LoggedOutView(showing: "Sign in · [name] [Continue]"))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    private func handle(_ action: LoggedOutAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .signIn(let name): listener.requestSignIn(as: name)
        }
    }
}
