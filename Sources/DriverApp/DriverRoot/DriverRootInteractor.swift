import RIBs

/// How the root changes the tree: offline or online.
protocol DriverRootRouting: AnyObject {
    func routeToOffline()
    func routeToOnline()
}

/// Routes between Offline and Online, following the driver's duty status (viewless).
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
            work.online.observe { [unowned self] online in
                if online { self.router?.routeToOnline() } else { self.router?.routeToOffline() }
            })
    }

    func goOnline() {
        work.goOnline(at: vehicle.position.value)
    }

    func goOffline() {
        work.goOffline(reason: "the shift ended")
    }
}
