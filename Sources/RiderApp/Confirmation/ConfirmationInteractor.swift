import RIBs
import Wire

/// What Confirmation's interactor asks of its presenter.
protocol ConfirmationPresentable: AnyObject {
    var listener: (any ConfirmationPresentableListener)? { get set }
    func present(product: Wire.Product?, quote: Wire.Quote?, status: RideStatus)
}

/// Shows the ride chosen and its state; asks for it, or cancels it.
final class ConfirmationInteractor: PresentableInteractor<any ConfirmationPresentable>, ConfirmationPresentableListener {
    private let ride: RideService

    init(presenter: any ConfirmationPresentable, ride: RideService) {
        self.ride = ride
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        presenter.listener = self
        bindToActivePeriod(
            ride.status.observe { [unowned self] status in
                let product = ride.draft.value.product
                presenter.present(product: product, quote: product.flatMap { self.ride.quotes.value[$0] }, status: status)
            })
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func confirm() {
        ride.confirm()
    }

    func cancel(reason: String) {
        ride.cancel(reason: reason)
    }
}
