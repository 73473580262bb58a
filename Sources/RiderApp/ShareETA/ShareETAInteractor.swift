import Contacts
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
    private var contacts: ContactsPipeline?

    init(presenter: any ShareETAPresentable, services: RiderServices) {
        self.services = services
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        if let failure = services.faults.failureAtWork(of: ShareETABuilder.feature) {
            services.flags.switchOff(ShareETABuilder.feature, reason: failure)
            return
        }
        presenter.listener = self
        let pipeline = contacts ?? services.contacts.loaded(selectingAtMost: ShareETABuilder.limit)
        contacts = pipeline
        bindToActivePeriod(
            services.social.sharingWith.observe { [weak self] sharing in
                guard let self else { return }
                let rows = (pipeline.contacts ?? []).map(ContactRow.init)
                presenter.present(sharing.isEmpty ? .choosing(rows) : .sharing(with: sharing))
            })
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func share(with ids: [String]) {
        guard var pipeline = contacts else { return }
        for id in ids {
            // A refused pick (over the limit, unreachable) is left out, as the screen would.
            _ = try? pipeline.select(id)
        }
        contacts = pipeline
        services.social.shareETA(with: pipeline.selected.compactMap(\.account))
    }

    func stop() {
        services.social.stopSharing()
    }
}
