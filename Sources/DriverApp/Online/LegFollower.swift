import AppRuntime
import RIBs
import Wire

/// While the driver is online: drives the car along each leg dispatch hands out, reports the leg
/// done on arrival, sends location updates while moving (if the topology asks for them), and
/// lets expired offers go.
final class LegFollower: Worker {
    private let link: AppLink
    private let work: WorkService
    private let vehicle: VehicleService
    /// When location updates go while moving; nil: none.
    private let cadence: LocationCadence?
    /// The cadence's period of the last update sent.
    private var lastReported: Int64?
    private var subscriptions: [Subscription] = []

    init(link: AppLink, work: WorkService, vehicle: VehicleService, cadence: LocationCadence?) {
        self.link = link
        self.work = work
        self.vehicle = vehicle
        self.cadence = cadence
    }

    override func didStart() {
        work.leg.observe { [weak self] leg in
            guard let self else { return }
            if let leg { vehicle.follow(leg.value) } else { vehicle.halt() }
        }.store(in: &subscriptions)
        link.clock.observe { [weak self] time in self?.advance(to: time) }.store(in: &subscriptions)
    }

    override func didStop() {
        subscriptions.removeAll()
    }

    private func advance(to time: Double) {
        work.expireOffer(at: time)
        guard vehicle.isMoving else { return }
        let arrived = vehicle.move(to: time)
        if let cadence, arrived || cadence.period(of: time) != lastReported {
            lastReported = cadence.period(of: time)
            let here = vehicle.position.value
            link.send(
                .locationUpdate(
                    LocationUpdate.with {
                        $0.driverID = work.driverID
                        $0.location = LatLon(here)
                    }))
        }
        if arrived { work.finishLeg() }
    }
}
