import RIBs
import Wire

/// What the user asked for on the confirmation screen.
protocol ConfirmationPresentableListener: AnyObject {
    func confirm()
    func cancel(reason: String)
}

/// Turns the ride's product, quote and state into the confirmation screen; passes taps on.
final class ConfirmationPresenter: Presenter<ConfirmationView>, ConfirmationPresentable {
    weak var listener: (any ConfirmationPresentableListener)?

    init() {
        super.init(view: ConfirmationView(showing: ConfirmationScreen(product: nil, price: nil, status: .drafting)))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    func present(product: Wire.Product?, quote: Wire.Quote?, status: RideStatus) {
        let price = quote.map { ConfirmationScreen.Price(cents: $0.priceCents, surge: $0.surgeMultiplier) }
        view.render(ConfirmationScreen(product: product, price: price, status: status))
    }

    private func handle(_ action: ConfirmationAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .confirm: listener.confirm()
        case .cancel(let reason): listener.cancel(reason: reason)
        }
    }
}
