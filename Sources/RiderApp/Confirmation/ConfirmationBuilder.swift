import RIBs

/// Builds the confirmation screen.
final class ConfirmationBuilder: Builder<any RideDependency> {
    func build() -> ConfirmationRouter {
        let presenter = ConfirmationPresenter()
        return ConfirmationRouter(
            interactor: ConfirmationInteractor(presenter: presenter, ride: dependency.ride), view: presenter.view)
    }
}
