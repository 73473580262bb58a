import AppRuntime
import RIBs

/// What Online and everything below it needs: the link, the work, the car and who drives it.
protocol OnlineDependency: Dependency {
    var link: AppLink { get }
    var work: WorkService { get }
    var vehicle: VehicleService { get }
    var profile: DriverProfile { get }
}

/// Builds the online screen, with its leg follower and the builders of its children.
struct OnlineBuilder: Builder {
    let dependency: any OnlineDependency

    func build(listener: any OnlineListener) -> OnlineRouter {
        let presenter = OnlinePresenter()
        let follower = LegFollower(
            link: dependency.link, work: dependency.work, vehicle: dependency.vehicle,
            cadence: dependency.profile.locationCadence)
        let interactor = OnlineInteractor(presenter: presenter, work: dependency.work, follower: follower)
        interactor.listener = listener
        return OnlineRouter(
            interactor: interactor, view: presenter.view, offer: OfferBuilder(dependency: dependency),
            driving: DrivingBuilder(dependency: dependency))
    }
}
