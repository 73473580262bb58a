import DispatchService
import Scenarios
import Topology
import Wire

extension AppOwners {
    /// The split of a topology's riders and drivers between its processes, as the hosts take it
    /// (`CityApps`): rides dealt round the rider processes, drivers in blocks.
    static func split(of topology: Topology) -> AppOwners {
        let riderProcesses = topology.riders.processes
        let driverProcesses = topology.drivers.processes
        let drivers = topology.drivers.total
        return AppOwners(
            rider: { name in
                WireIDs.number(ofRider: name)
                    .flatMap { ProcessShare.process(ofRide: $0, processes: riderProcesses) }
                    .map(WireIDs.riderProcess)
            },
            driver: { name in
                WireIDs.number(ofDriver: name)
                    .flatMap { ProcessShare.process(ofDriver: $0, of: drivers, processes: driverProcesses) }
                    .map(WireIDs.driverProcess)
            })
    }
}
