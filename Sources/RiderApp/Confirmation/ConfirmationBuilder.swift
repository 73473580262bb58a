import RIBs

/// Builds the confirmation screen.
struct ConfirmationBuilder: Builder {
    let dependency: any RideDependency

    func build() -> ConfirmationRouter {
        let presenter = ConfirmationPresenter()
        return ConfirmationRouter(
            interactor: ConfirmationInteractor(presenter: presenter, ride: dependency.ride), view: presenter.view)
    }
}
