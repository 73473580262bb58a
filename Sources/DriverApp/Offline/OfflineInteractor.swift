import RIBs

/// What Offline tells its parent.
protocol OfflineListener: AnyObject {
    func goOnline()
}

/// What Offline's interactor asks of its presenter.
protocol OfflinePresentable: AnyObject {
    var listener: (any OfflinePresentableListener)? { get set }
}

/// Hands "go online" to the parent, which owns the duty status.
final class OfflineInteractor: PresentableInteractor<any OfflinePresentable>, OfflinePresentableListener {
    weak var listener: (any OfflineListener)?

    override func didBecomeActive() {
        presenter.listener = self
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func goOnline() {
        listener?.goOnline()
    }
}
