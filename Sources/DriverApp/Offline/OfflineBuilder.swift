import RIBs

/// What Offline needs from its parent: the driver's profile (the shift).
protocol OfflineDependency: Dependency {
    var profile: DriverProfile { get }
}

/// Builds the offline screen.
struct OfflineBuilder: Builder {
    let dependency: any OfflineDependency

    func build(listener: any OfflineListener) -> OfflineRouter {
        let presenter = OfflinePresenter(shiftStart: dependency.profile.shiftStart)
        let interactor = OfflineInteractor(presenter: presenter)
        interactor.listener = listener
        return OfflineRouter(interactor: interactor, view: presenter.view)
    }
}
