import AppRuntime
import City
import RIBs

/// What every RIB of the driver app may need: the link to dispatch, the work and the car.
final class DriverRootComponent: Component<EmptyDependency>, OfflineDependency, OnlineDependency {
    let link: AppLink
    let work: WorkService
    let vehicle: VehicleService
    let profile: DriverProfile

    init(link: AppLink, profile: DriverProfile, graph: RoadGraph) {
        self.link = link
        self.profile = profile
        work = WorkService(driverID: profile.id, link: link)
        vehicle = VehicleService(graph: graph, node: profile.startNode)
        super.init(dependency: EmptyDependency())
    }
}

protocol DriverRootRouting: AnyObject {
    func routeToOffline()
    func routeToOnline()
}

/// Routes between Offline and Online, following the driver's duty status.
final class DriverRootInteractor: Interactor, OfflineListener, OnlineListener {
    weak var router: (any DriverRootRouting)?
    private let work: WorkService
    private let vehicle: VehicleService

    init(work: WorkService, vehicle: VehicleService) {
        self.work = work
        self.vehicle = vehicle
    }

    override func didBecomeActive() {
        bindToActivePeriod(
            work.online.observe { [weak self] online in
                if online { self?.router?.routeToOnline() } else { self?.router?.routeToOffline() }
            })
    }

    func goOnline() {
        work.goOnline(at: vehicle.position.value)
    }

    func goOffline() {
        work.goOffline(reason: "the shift ended")
    }
}

/// The driver app's root.
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

/// Builds the driver app's tree.
final class DriverRootBuilder: Builder<EmptyDependency> {
    func build(component: DriverRootComponent) -> DriverRootRouter {
        let interactor = DriverRootInteractor(work: component.work, vehicle: component.vehicle)
        return DriverRootRouter(
            interactor: interactor, offline: OfflineBuilder(dependency: component),
            online: OnlineBuilder(dependency: component))
    }
}
