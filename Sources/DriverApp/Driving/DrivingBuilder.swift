import RIBs

/// Builds Driving under the name of what the driver is doing: Idle, EnRoute or OnTrip.
struct DrivingBuilder: Builder {
    let dependency: any OnlineDependency

    func build(_ activity: DriverActivity) -> any Routing {
        let presenter = DrivingPresenter(position: dependency.vehicle.position.value)
        let interactor = DrivingInteractor(
            presenter: presenter, activity: activity, work: dependency.work, vehicle: dependency.vehicle)
        switch activity {
        case .enRoute: return EnRouteRouter(interactor: interactor, view: presenter.view)
        case .onTrip: return OnTripRouter(interactor: interactor, view: presenter.view)
        case .idle, .offer: return IdleRouter(interactor: interactor, view: presenter.view)
        }
    }
}
