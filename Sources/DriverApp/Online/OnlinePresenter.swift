import RIBs

/// What the user asked for on the online screen.
protocol OnlinePresentableListener: AnyObject {
    func goOffline()
}

/// Shows what the driver is doing; passes "go offline" on.
final class OnlinePresenter: Presenter<OnlineView>, OnlinePresentable {
    weak var listener: (any OnlinePresentableListener)?

    init() {
        super.init(view: OnlineView(showing: OnlineScreen(status: DriverActivity.idle.name)))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    func present(_ activity: DriverActivity) {
        view.render(OnlineScreen(status: activity.name))
    }

    private func handle(_ action: OnlineAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .goOffline: listener.goOffline()
        }
    }
}
