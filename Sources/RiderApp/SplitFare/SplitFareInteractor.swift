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
    private var picker: ContactPicker?

    init(presenter: any SplitFarePresentable, services: RiderServices) {
        self.services = services
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        guard !services.failsAtWork(SplitFareBuilder.feature) else { return }
        presenter.listener = self
        if picker == nil { picker = ContactPicker(services.contacts, selectingAtMost: SplitFareBuilder.limit) }
        let rows = picker?.rows ?? []
        let social = services.social
        let present = { [weak self] in
            guard let self else { return }
            if let split = social.fareSplit.value {
                let mine = split.shares.first { $0.riderID == social.riderID }?.cents ?? split.fareCents
                presenter.present(.settled(share: mine, fare: split.fareCents, payers: split.shares.count))
            } else if social.invited.value.isEmpty {
                presenter.present(.choosing(rows))
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
        guard let accounts = picker?.pick(ids) else { return }
        services.social.invite(accounts)
    }
}
