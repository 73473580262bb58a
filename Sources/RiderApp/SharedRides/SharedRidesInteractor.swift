import RIBs

/// What the shared rides' interactor asks of its presenter.
protocol SharedRidesPresentable: AnyObject {
    func present(_ rides: [SharedRide], at time: Double)
}

/// Follows the rides other riders share with this one, and the clock (the ETA counts down).
final class SharedRidesInteractor: PresentableInteractor<any SharedRidesPresentable> {
    private let services: RiderServices

    init(presenter: any SharedRidesPresentable, services: RiderServices) {
        self.services = services
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        let social = services.social
        let link = services.link
        bindToActivePeriod(social.sharedWithMe.observe { [unowned self] rides in self.presenter.present(rides, at: link.now) })
        bindToActivePeriod(
            link.clock.observe { [unowned self] time in self.presenter.present(social.sharedWithMe.value, at: time) })
    }
}
