import RIBs

/// What the user asked for on the offline screen.
protocol OfflinePresentableListener: AnyObject {
    func goOnline()
}

/// Shows when the shift starts; passes "go online" on.
final class OfflinePresenter: Presenter<OfflineView>, OfflinePresentable {
    weak var listener: (any OfflinePresentableListener)?

    init(shiftStart: Double) {
        super.init(view: OfflineView(showing: OfflineScreen(shiftStart: shiftStart)))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    private func handle(_ action: OfflineAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .goOnline: listener.goOnline()
        }
    }
}
