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
    /// Rides the records or the demand model offered (placed or left out).
    public let offered: Int

    /// What was left out, in words, with a warning when it was most of the rides and how to
    /// take them in (empty when nothing was left out).
    public var leftOutReport: [String] {
        let total = leftOut.values.reduce(0, +)
        guard total > 0 else { return [] }
        let reasons = leftOut.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) \($0.key)" }
        var lines = ["rides left out: \(total) of \(offered) (\(reasons.joined(separator: ", ")))"]
        guard total * 2 > offered else { return lines }
        // Rounded down: never "100 %" while a ride is left in.
        let share = String(format: "%.1f", (Double(total) * 1_000 / Double(max(1, offered))).rounded(.down) / 10)
        let start = Int(topology.startSecondOfDay)
        let window = String(
            format: "%02d:%02d for %.0f s", start / 3_600, start / 60 % 60, topology.duration)
        if (leftOut[Replay.afterTheEnd] ?? 0) * 2 > total {
            lines.append(
                "warning: \(share) % of the rides were left out, most of them outside the simulated window (\(window)): "
                    + "to take them in, lengthen it (--duration, or `duration` in the topology) or move it to their hours "
                    + "(--start-hour, or `start_time`)")
        } else {
            lines.append(
                "warning: \(share) % of the rides were left out, most of them off the map: "
                    + "use a city that covers their pickups and dropoffs")
        }
        return lines
    }

    /// Loads the city (or takes `graph`, the topology's city already loaded), reads or draws
    /// the demand, and places it on the roads. Throws the importers' own errors
    /// (``CityImportError``, ``DemandError``), which name the file.
    public init(_ topology: Topology, graph loaded: RoadGraph? = nil) throws {
        self.topology = topology
        let graph = try loaded ?? topology.city.load()
        let area = GeoBox(around: graph.positions)
        let placement = DemandPlacement(graph: graph)
        var reports: [ReplayReport] = []
        var leftOut: [String: Int] = [:]
        var offered = 0
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
            offered = wanted.count
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
            offered = read.count
        }
        let (trips, unplaced) = placement.place(wanted)
        leftOut.merge(unplaced, uniquingKeysWith: +)
        let riders = RiderBehaviour(
            patience: topology.riders.patienceSeconds, poolShare: topology.riders.poolShare,
            scheduledShare: topology.riders.scheduledShare)
        scenario = Self.timed(
            Scenario.city(
                name: topology.name, graph: graph, driverCount: topology.drivers.total, trips: trips,
                duration: topology.duration, dispatch: topology.dispatch, riders: riders,
                drivers: Self.drivers(of: topology), seed: topology.seed),
            by: topology)
        recordReports = reports
        self.leftOut = leftOut
        self.offered = offered
    }

    /// The topology whose rides another process drew and placed on `graph` (its city, loaded)
    /// with ``init(_:graph:)`` and handed over (``Scenario/trips``): the same scenario, without
    /// drawing the demand again. What reading records found and what was left out stay with
    /// whoever drew it (empty here); `offered` is the rides handed over.
    public init(_ topology: Topology, graph: RoadGraph, drawnRides rides: [TripDemand]) {
        self.topology = topology
        scenario = Self.timed(
            Scenario.city(
                name: topology.name, graph: graph, driverCount: topology.drivers.total, drawnRides: rides,
                duration: topology.duration, dispatch: topology.dispatch, drivers: Self.drivers(of: topology),
                seed: topology.seed),
            by: topology)
        recordReports = []
        leftOut = [:]
        offered = rides.count
    }

    private static func drivers(of topology: Topology) -> DriverBehaviour {
        DriverBehaviour(acceptance: topology.drivers.acceptance, responseSeconds: topology.drivers.responseSeconds)
    }

    /// `scenario` on the topology's travel times, day and hours.
    private static func timed(_ scenario: Scenario, by topology: Topology) -> Scenario {
        var built = scenario
        built.travelTimes = topology.calibration?.file.model
        built.startSecondOfDay = topology.startSecondOfDay
        built.day = topology.day
        return built
    }
}
