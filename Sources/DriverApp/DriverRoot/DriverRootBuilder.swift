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

/// Builds the driver app's tree.
struct DriverRootBuilder: Builder {
    let dependency: EmptyDependency

    func build(component: DriverRootComponent) -> DriverRootRouter {
        let interactor = DriverRootInteractor(work: component.work, vehicle: component.vehicle)
        return DriverRootRouter(
            interactor: interactor, offline: OfflineBuilder(dependency: component),
            online: OnlineBuilder(dependency: component))
    }
}
