import RIBs
import Wire

/// What the user asked for on the product selection.
protocol ProductSelectionPresentableListener: AnyObject {
    func choose(_ product: Wire.Product)
}

/// Turns quotes into the choice on screen; passes the choice on.
final class ProductSelectionPresenter: Presenter<ProductSelectionView>, ProductSelectionPresentable {
    weak var listener: (any ProductSelectionPresentableListener)?

    init() {
        super.init(view: ProductSelectionView(showing: ProductSelectionScreen(quotes: Quotes())))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    func present(quotes: Quotes) {
        view.render(ProductSelectionScreen(quotes: quotes))
    }

    private func handle(_ action: ProductSelectionAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .choose(let product): listener.choose(product)
        }
    }
}
