import RIBs
import Wire

/// What ProductSelection's interactor asks of its presenter.
protocol ProductSelectionPresentable: AnyObject {
    var listener: (any ProductSelectionPresentableListener)? { get set }
    func present(quotes: Quotes)
}

/// Shows the quotes as they arrive; puts the product chosen into the draft.
final class ProductSelectionInteractor: PresentableInteractor<any ProductSelectionPresentable>,
    ProductSelectionPresentableListener
{
    private let ride: RideService

    init(presenter: any ProductSelectionPresentable, ride: RideService) {
        self.ride = ride
        super.init(presenter: presenter)
    }

    override func didBecomeActive() {
        presenter.listener = self
        bindToActivePeriod(ride.quotes.observe { [unowned self] quotes in self.presenter.present(quotes: quotes) })
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func choose(_ product: Wire.Product) {
        ride.choose(product)
    }
}
