import RIBs

/// What Online tells its parent.
protocol OnlineListener: AnyObject {
    func goOffline()
}

/// How Online changes the tree: the child for what the driver is doing.
protocol OnlineRouting: AnyObject {
    func route(to activity: DriverActivity)
}

/// What Online's interactor asks of its presenter.
protocol OnlinePresentable: AnyObject {
    var listener: (any OnlinePresentableListener)? { get set }
    func present(_ activity: DriverActivity)
}

/// Follows the offer and the leg dispatch gave, and routes among Idle, Offer, EnRoute and OnTrip;
/// keeps the car moving (the leg follower) while online.
final class OnlineInteractor: PresentableInteractor<any OnlinePresentable>, OnlinePresentableListener, OfferListener {
    weak var router: (any OnlineRouting)?
    weak var listener: (any OnlineListener)?
    private let work: WorkService
    private let follower: LegFollower

    init(presenter: any OnlinePresentable, work: WorkService, follower: LegFollower) {
        self.work = work
        self.follower = follower
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        presenter.listener = self
        follower.start(self)
        bindToActivePeriod(work.offer.observe { [unowned self] _ in self.update() })
        bindToActivePeriod(work.leg.observe { [unowned self] _ in self.update() })
    }

    override func willResignActive() {
        presenter.listener = nil
        follower.stop()
    }

    func goOffline() {
        listener?.goOffline()
    }

    func answer(accept: Bool) {
        work.answer(accept: accept)
    }

    private func update() {
        let activity = DriverActivity(offer: work.openOffer, leg: work.currentLeg)
        presenter.present(activity)
        router?.route(to: activity)
    }
}
