import RIBs
import Wire

/// The ride chosen, its price, and the button to ask for it; then "finding a driver" and cancel.
final class ConfirmationView: View<ConfirmationView.Screen, ConfirmationView.Action> {
    struct Screen: Equatable, CustomStringConvertible {
        var product: Wire.Product?
        var quote: Wire.Quote?
        var status: RideStatus
        var description: String {
            let price = quote.map { " · \(Money(cents: $0.priceCents)) ×\($0.surgeMultiplier) surge" } ?? ""
            let name = product == .pool ? "POOL" : "UberX"
            switch status {
            case .drafting: return "\(name)\(price) · [Confirm]"
            case .requesting, .matching: return "\(name)\(price) · finding a driver… · [Cancel]"
            default: return "\(name) · \(status)"
            }
        }
    }

    enum Action { case confirm, cancel(reason: String) }
}

final class ConfirmationInteractor: ViewInteractor<ConfirmationView.Screen, ConfirmationView.Action> {
    private let ride: RideService

    init(view: ConfirmationView, ride: RideService) {
        self.ride = ride
        super.init(presenter: view)
    }

    override func didBecomeActive() {
        super.didBecomeActive()
        bindToActivePeriod(
            ride.status.observe { [weak self] status in
                guard let self else { return }
                let product = ride.draft.value.product
                presenter.render(.init(product: product, quote: product.flatMap { self.ride.quotes.value[$0] }, status: status))
            })
    }

    override func handle(_ action: ConfirmationView.Action) {
        switch action {
        case .confirm: ride.confirm()
        case .cancel(let reason): ride.cancel(reason: reason)
        }
    }
}

final class ConfirmationRouter: ViewableRouter<ConfirmationInteractor, ConfirmationView> {}

final class ConfirmationBuilder: Builder<any RideDependency> {
    func build() -> ConfirmationRouter {
        let view = ConfirmationView(showing: .init(product: nil, quote: nil, status: .drafting))
        return ConfirmationRouter(interactor: ConfirmationInteractor(view: view, ride: dependency.ride), view: view)
    }
}
