import RIBs
import Wire

/// An optional plugin (flag `rider.promotions`): shows a promotion matched to the ride being
/// drafted — POOL's saving once both quotes are in. Core code never depends on it.
final class PromotionsView: View<String, Never> {}

final class PromotionsInteractor: PresentableInteractor<PromotionsView> {
    private let ride: RideService

    init(view: PromotionsView, ride: RideService) {
        self.ride = ride
        super.init(presenter: view)
    }

    override func didBecomeActive() {
        bindToActivePeriod(
            ride.quotes.observe { [weak self] quotes in
                guard let standard = quotes[.uberX]?.priceCents, let pool = quotes[.pool]?.priceCents, standard > 0 else {
                    self?.presenter.render("Promotions · share a ride and save")
                    return
                }
                let saving = Int((Double(standard - pool) / Double(standard) * 100).rounded())
                self?.presenter.render("Promotions · POOL saves \(saving) % on this ride")
            })
    }
}

final class PromotionsRouter: ViewableRouter<PromotionsInteractor, PromotionsView> {}

enum PromotionsBuilder {
    /// The plugin, under its flag.
    static func plugin() -> Plugin<RideService, any Routing> {
        Plugin(name: "rider.promotions") { ride in
            let view = PromotionsView(showing: "Promotions")
            return PromotionsRouter(interactor: PromotionsInteractor(view: view, ride: ride), view: view)
        }
    }
}
