import RIBs

/// What Promotions' interactor asks of its presenter.
protocol PromotionsPresentable: AnyObject {
    /// Shows what POOL saves on this ride, in percent, or the general offer while it is unknown.
    func present(poolSaving percent: Int?)
}

/// An optional plugin (flag `rider.promotions`): a promotion matched to the ride being drafted —
/// POOL's saving once both quotes are in. Core code never depends on it.
final class PromotionsInteractor: PresentableInteractor<any PromotionsPresentable> {
    private let ride: RideService

    init(presenter: any PromotionsPresentable, ride: RideService) {
        self.ride = ride
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        bindToActivePeriod(
            ride.quotes.observe { [unowned self] quotes in
                guard let standard = quotes[.uberX]?.priceCents, let pool = quotes[.pool]?.priceCents, standard > 0 else {
                    self.presenter.present(poolSaving: nil)
                    return
                }
                self.presenter.present(poolSaving: Int((Double(standard - pool) / Double(standard) * 100).rounded()))
            })
    }
}
