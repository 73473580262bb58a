import RIBs

/// What the split inbox's interactor asks of its presenter.
protocol SplitInboxPresentable: AnyObject {
    var listener: (any SplitInboxPresentableListener)? { get set }
    func present(_ invitations: [OpenInvitation])
}

/// Shows the open invitations to split a fare and passes the rider's answers on.
final class SplitInboxInteractor: PresentableInteractor<any SplitInboxPresentable>, SplitInboxPresentableListener {
    private let services: RiderServices

    init(presenter: any SplitInboxPresentable, services: RiderServices) {
        self.services = services
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        presenter.listener = self
        let social = services.social
        // Invitations that lapse leave the screen (the app lapses them as its clock moves).
        bindToActivePeriod(social.invitations.observe { [unowned self] open in self.presenter.present(open) })
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func answer(_ id: String, accept: Bool) {
        services.social.answer(id, accept: accept)
    }
}
