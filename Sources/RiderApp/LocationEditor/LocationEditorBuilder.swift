import RIBs

/// Builds the screen where the rider says where from and where to.
struct LocationEditorBuilder: Builder {
    let dependency: any RideDependency

    func build() -> LocationEditorRouter {
        let presenter = LocationEditorPresenter()
        return LocationEditorRouter(
            interactor: LocationEditorInteractor(presenter: presenter, ride: dependency.ride), view: presenter.view)
    }
}
