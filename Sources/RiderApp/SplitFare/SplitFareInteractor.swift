import Contacts
import RIBs

/// What Split Fare's interactor asks of its presenter.
protocol SplitFarePresentable: AnyObject {
    var listener: (any SplitFarePresentableListener)? { get set }
    func present(_ screen: SplitFareScreen)
}

/// Split Fare (flag `rider.split_fare`): the rider invites contacts who ride in the city to
/// split this ride's fare; each accepts or declines in their own app, and at the dropoff the
/// fare is split among the rider and those who accepted.
final class SplitFareInteractor: PresentableInteractor<any SplitFarePresentable>, SplitFarePresentableListener {
    private let services: RiderServices
    private var contacts: ContactsPipeline?

    init(presenter: any SplitFarePresentable, services: RiderServices) {
        self.services = services
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        if let failure = services.faults.failureAtWork(of: SplitFareBuilder.feature) {
            services.flags.switchOff(SplitFareBuilder.feature, reason: failure)
            return
        }
        presenter.listener = self
        let pipeline = contacts ?? services.contacts.loaded(selectingAtMost: SplitFareBuilder.limit)
        contacts = pipeline
        let social = services.social
        let present = { [weak self] in
            guard let self else { return }
            if let split = social.fareSplit.value {
                let mine = split.shares.first { $0.riderID == social.riderID }?.cents ?? split.fareCents
                presenter.present(.settled(share: mine, fare: split.fareCents, payers: split.shares.count))
            } else if social.invited.value.isEmpty {
                presenter.present(.choosing((pipeline.contacts ?? []).map(ContactRow.init)))
            } else {
                presenter.present(.invited(social.invited.value))
            }
        }
        bindToActivePeriod(social.invited.observe { _ in present() })
        bindToActivePeriod(social.fareSplit.observe { _ in present() })
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func invite(_ ids: [String]) {
        guard var pipeline = contacts else { return }
        for id in ids { _ = try? pipeline.select(id) }
        contacts = pipeline
        services.social.invite(pipeline.selected.compactMap(\.account))
    }
}
