import RIBs
import Wire

/// UberX or POOL, each with its price and pickup ETA once quoted.
final class ProductSelectionView: View<ProductSelectionView.Screen, ProductSelectionView.Action> {
    struct Screen: Equatable, CustomStringConvertible {
        var quotes: [Wire.Product: Wire.Quote]
        var description: String {
            guard !quotes.isEmpty else { return "Choose a ride · quoting…" }
            let options = quotes.keys.sorted { $0.rawValue < $1.rawValue }.map { product in
                let quote = quotes[product]!
                return "[\(product == .pool ? "POOL" : "UberX") \(Money(cents: quote.priceCents)) · pickup \(quote.pickupEtaS) s]"
            }
            return "Choose a ride · " + options.joined(separator: " ")
        }
    }

    enum Action { case choose(Wire.Product) }
}

final class ProductSelectionInteractor: ViewInteractor<ProductSelectionView.Screen, ProductSelectionView.Action> {
    private let ride: RideService

    init(view: ProductSelectionView, ride: RideService) {
        self.ride = ride
        super.init(presenter: view)
    }

    override func didBecomeActive() {
        super.didBecomeActive()
        bindToActivePeriod(ride.quotes.observe { [weak self] quotes in self?.presenter.render(.init(quotes: quotes)) })
    }

    override func handle(_ action: ProductSelectionView.Action) {
        switch action {
        case .choose(let product): ride.choose(product)
        }
    }
}

final class ProductSelectionRouter: ViewableRouter<ProductSelectionInteractor, ProductSelectionView> {}

final class ProductSelectionBuilder: Builder<any RideDependency> {
    func build() -> ProductSelectionRouter {
        let view = ProductSelectionView(showing: .init(quotes: [:]))
        return ProductSelectionRouter(interactor: ProductSelectionInteractor(view: view, ride: dependency.ride), view: view)
    }
}

/// Cents shown as dollars.
struct Money: CustomStringConvertible {
    let cents: Int64
    var description: String { "$\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)" }
}
