import RIBs

/// The driver app's root: Offline or Online below it.
final class DriverRootRouter: LaunchRouter<DriverRootInteractor>, DriverRootRouting {
    private let offline: OfflineBuilder
    private let online: OnlineBuilder

    init(interactor: DriverRootInteractor, offline: OfflineBuilder, online: OnlineBuilder) {
        self.offline = offline
        self.online = online
        super.init(interactor: interactor)
        interactor.router = self
    }

    override var name: String { "Root" }

    func routeToOffline() {
        show(OfflineRouter.self) { offline.build(listener: interactor) }
    }

    func routeToOnline() {
        show(OnlineRouter.self) { online.build(listener: interactor) }
    }
}
