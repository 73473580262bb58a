import RIBs

/// Builds the screen where the rider picks UberX or POOL.
struct ProductSelectionBuilder: Builder {
    let dependency: any RideDependency

    func build() -> ProductSelectionRouter {
        let presenter = ProductSelectionPresenter()
        return ProductSelectionRouter(
            interactor: ProductSelectionInteractor(presenter: presenter, ride: dependency.ride), view: presenter.view)
    }
}
