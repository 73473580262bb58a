import RIBs

/// What Share ETA's interactor asks of its presenter.
protocol ShareETAPresentable: AnyObject {
    var listener: (any ShareETAPresentableListener)? { get set }
    func present(_ screen: ShareETAScreen)
}

/// Share ETA (flag `rider.share_eta`): the rider picks contacts who ride in the city and they
/// see this ride's ETA live in their own app, until the ride ends or the rider stops sharing.
/// Contacts come from the Ohana-style pipeline; at most ``ShareETABuilder/limit`` are picked.
final class ShareETAInteractor: PresentableInteractor<any ShareETAPresentable>, ShareETAPresentableListener {
    private let services: RiderServices
    private var picker: ContactPicker?

    init(presenter: any ShareETAPresentable, services: RiderServices) {
        self.services = services
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        guard !services.failsAtWork(ShareETABuilder.feature) else { return }
        presenter.listener = self
        if picker == nil { picker = ContactPicker(services.contacts, selectingAtMost: ShareETABuilder.limit) }
        let rows = picker?.rows ?? []
        bindToActivePeriod(
            services.social.sharingWith.observe { [unowned self] sharing in
                self.presenter.present(sharing.isEmpty ? .choosing(rows) : .sharing(with: sharing))
            })
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func share(with ids: [String]) {
        guard let accounts = picker?.pick(ids) else { return }
        services.social.shareETA(with: accounts)
    }

    func stop() {
        services.social.stopSharing()
    }
}
