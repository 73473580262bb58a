import City
import Demand
import RideDispatch
import Topology

/// A topology made ready to run: its road graph and the rides placed on it, with what was left
/// out on the way.
public struct PreparedTopology: Sendable {
    public let topology: Topology
    public let scenario: Scenario
    /// What reading records found, for replays and fitted profiles.
    public let recordReports: [ReplayReport]
    /// Rides left out, by reason (outside the map, far from any road, …).
    public let leftOut: [String: Int]

    /// Loads the city, reads or draws the demand, and places it on the roads. Throws the
    /// importers' own errors (``CityImportError``, ``DemandError``), which name the file.
    public init(_ topology: Topology) throws {
        self.topology = topology
        let graph = try topology.city.load()
        let area = GeoBox(around: graph.positions)
        let placement = DemandPlacement(graph: graph)
        var reports: [ReplayReport] = []
        var leftOut: [String: Int] = [:]
        let wanted: [DemandTrip]
        switch topology.riders.demand {
        case .synthetic(let peak, let profile, let hotSpots, let even, let minimum):
            let hourly: HourlyProfile
            switch profile {
            case .flat: hourly = .flat
            case .fitted(let records):
                let (read, report) = try TripRecordReader.read(path: records)
                reports.append(report)
                hourly = .fitted(on: read)
            }
            wanted = SyntheticDemand(
                peakRequestsPerHour: peak, profile: hourly, startSecondOfDay: topology.startSecondOfDay,
                hotSpots: hotSpots, minimumTripMetres: minimum, evenlySpaced: even
            )
            .generate(duration: topology.duration, area: area, seed: topology.seed, place: placement.roadPoint)
        case .replay(let records, let destinations):
            let (read, report) = try TripRecordReader.read(path: records)
            reports.append(report)
            // Destinations are fitted on their own file when one is given, else on the records.
            var fittedOn = read
            if let destinations {
                let (fitted, fittedReport) = try TripRecordReader.read(path: destinations)
                reports.append(fittedReport)
                fittedOn = fitted
            }
            let model = ODModel(fitting: fittedOn)
            let replay = Replay(timing: .foldedIntoOneDay(startSecondOfDay: topology.startSecondOfDay), area: area)
            let (trips, dropped) = replay.trips(from: read, duration: topology.duration, destinations: model, seed: topology.seed)
            leftOut.merge(dropped, uniquingKeysWith: +)
            wanted = trips
        }
        let (trips, unplaced) = placement.place(wanted)
        leftOut.merge(unplaced, uniquingKeysWith: +)
        let riders = RiderBehaviour(
            patience: topology.riders.patienceSeconds, poolShare: topology.riders.poolShare,
            scheduledShare: topology.riders.scheduledShare)
        let drivers = DriverBehaviour(acceptance: topology.drivers.acceptance, responseSeconds: topology.drivers.responseSeconds)
        scenario = .city(
            name: topology.name, graph: graph, driverCount: topology.drivers.total, trips: trips,
            duration: topology.duration, dispatch: topology.dispatch, riders: riders, drivers: drivers, seed: topology.seed)
        recordReports = reports
        self.leftOut = leftOut
    }
}
