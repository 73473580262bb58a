/// An interactor with a presenter, for RIBs that have a view.
open class PresentableInteractor<PresenterType>: Interactor {
    /// The RIB's presenter.
    public let presenter: PresenterType

    /// An inactive interactor with its presenter.
    public init(presenter: PresenterType) {
        self.presenter = presenter
        super.init()
    }
}
