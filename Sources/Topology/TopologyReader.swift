import City
import Demand
import Foundation
import RideDispatch
import Yams

/// Reads and validates a topology file. Every error names the file, the key and its line, and
/// says what is wrong; unknown keys are errors.
public enum TopologyReader {
    public static func read(path: String) throws(TopologyError) -> Topology {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw TopologyError(file: name, key: "", line: nil, reason: "cannot be read (missing, not permitted, or not UTF-8)")
        }
        let directory = ((path as NSString).deletingLastPathComponent as NSString).standardizingPath
        return try parse(text, file: name, directory: directory.isEmpty ? "." : directory)
    }

    /// Parses topology text; `directory` is what relative paths inside are relative to.
    public static func parse(_ text: String, file: String, directory: String) throws(TopologyError) -> Topology {
        var top = try YAMLFields(document: text, file: file)
        func resolve(_ relative: String, _ key: String, in fields: YAMLFields) throws(TopologyError) -> String {
            let absolute =
                relative.hasPrefix("/")
                ? relative : ((directory as NSString).appendingPathComponent(relative) as NSString).standardizingPath
            guard FileManager.default.fileExists(atPath: absolute) else {
                throw fields.error(key, "no file at \(relative) (looked in \(absolute))")
            }
            return absolute
        }

        let name = try top.string("name") ?? ((file as NSString).deletingPathExtension)
        guard var citySection = try top.fields("city") else { throw top.error("city", "is required (osm: FILE or grid: {…})") }
        let city: Topology.CitySource
        switch (citySection.has("osm"), citySection.has("grid")) {
        case (true, false):
            city = .openStreetMap(path: try resolve(try citySection.string("osm")!, "osm", in: citySection))
            _ = citySection.node("grid")
        case (false, true):
            var grid = try citySection.fields("grid")!
            city = .grid(
                GridCity(
                    width: try grid.double("width_m", in: 250...100_000) ?? 5_000,
                    height: try grid.double("height_m", in: 250...100_000) ?? 5_000,
                    blockLength: try grid.double("block_m", in: 10...5_000) ?? 250,
                    speedKmh: try grid.double("speed_kmh", in: 1...200) ?? 50))
            try grid.finish()
            _ = citySection.node("osm")
        default:
            throw citySection.error(nil, "needs exactly one of osm: FILE or grid: {width_m, height_m, block_m, speed_kmh}")
        }
        let calibration = try citySection.string("calibration").map { relative throws(TopologyError) -> Topology.Calibration in
            let path = try resolve(relative, "calibration", in: citySection)
            return Topology.Calibration(path: path, file: try CalibrationFile.read(path: path))
        }
        try citySection.finish()

        var clock = try top.fields("clock")
        let speed = try clock?.double("speed", in: 0.01...100_000) ?? 60
        let duration = try clock?.duration("duration") ?? 3_600
        let start =
            try clock?.string("start_time").map { text throws(TopologyError) -> Double in
                let parts = text.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 2, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]) else {
                    throw clock!.error("start_time", "must be HH:MM, not '\(text)'")
                }
                return Double(parts[0] * 3_600 + parts[1] * 60)
            } ?? 8 * 3_600
        let clockMode = try clock?.choice("mode", ["wall", "virtual"]).flatMap(Topology.ClockMode.init) ?? .wall
        let day = try clock?.choice("day", DayKind.allCases.map(\.rawValue)).flatMap(DayKind.init(rawValue:)) ?? .weekday
        try clock?.finish()
        var network = try top.fields("network")
        let latencyMs = try network?.int("latency_ms", in: 1...60_000) ?? 500
        try network?.finish()
        let seed = UInt64(try top.int("seed", in: 0...Int.max) ?? 1)

        var shards = 1
        var border = BorderPlan()
        let dispatch = try readDispatch(
            &top, dwell: calibration?.file.model, shards: &shards, border: &border)
        guard var driverSection = try top.fields("drivers") else { throw top.error("drivers", "is required") }
        var drivers = Topology.DriverPlan()
        drivers.processes = try driverSection.int("processes", in: 1...64) ?? drivers.processes
        drivers.perProcess = try driverSection.int("per_process", in: 1...100_000) ?? drivers.perProcess
        drivers.acceptance = try driverSection.range("acceptance", in: 0...1) ?? drivers.acceptance
        drivers.responseSeconds = try driverSection.range("response_s", in: 0...600) ?? drivers.responseSeconds
        if let every = try driverSection.double("location_every_s", in: 0...3_600) {
            drivers.locationEverySeconds = every > 0 ? every : nil
        }
        drivers.hosts = try hostNames(&driverSection)
        try driverSection.finish()

        guard var riderSection = try top.fields("riders") else { throw top.error("riders", "is required") }
        let processes = try riderSection.int("processes", in: 1...64) ?? 1
        guard var demandSection = try riderSection.fields("demand") else {
            throw riderSection.error("demand", "is required (synthetic: {…} or replay: {…})")
        }
        let demand: Topology.DemandSource
        switch (demandSection.has("synthetic"), demandSection.has("replay")) {
        case (true, false):
            var synthetic = try demandSection.fields("synthetic")!
            guard let peak = try synthetic.double("peak_per_hour", in: 0.001...10_000_000) else {
                throw synthetic.error("peak_per_hour", "is required")
            }
            let profile: Topology.Profile =
                try synthetic.string("profile").map { text throws(TopologyError) in
                    text == "flat" ? .flat : .fitted(records: try resolve(text, "profile", in: synthetic))
                } ?? .flat
            var spots: [HotSpot] = []
            if let list = synthetic.node("hot_spots") {
                guard let items = list.sequence else { throw synthetic.error("hot_spots", "must be a list", at: list) }
                for (index, item) in items.enumerated() {
                    var spot = try YAMLFields(item, path: "\(synthetic.path).hot_spots[\(index)]", file: file)
                    guard let lat = try spot.double("lat", in: -90...90), let lon = try spot.double("lon", in: -180...180) else {
                        throw spot.error(nil, "needs lat and lon")
                    }
                    spots.append(
                        HotSpot(
                            centre: GeoPoint(lat: lat, lon: lon), radius: try spot.double("radius_m", in: 1...100_000) ?? 500,
                            weight: try spot.double("weight", in: 0...1_000_000) ?? 1))
                    try spot.finish()
                }
            }
            let even = try synthetic.choice("arrivals", ["poisson", "even"]).map { $0 == "even" } ?? false
            let minimum = try synthetic.double("min_trip_m", in: 0...100_000) ?? 500
            try synthetic.finish()
            demand = .synthetic(
                peakPerHour: peak, profile: profile, hotSpots: spots, evenlySpaced: even, minimumTripMetres: minimum)
            _ = demandSection.node("replay")
        case (false, true):
            var replay = try demandSection.fields("replay")!
            guard let records = try replay.string("file") else { throw replay.error("file", "is required") }
            let recordsPath = try resolve(records, "file", in: replay)
            let destinations = try replay.string("destinations").map { text throws(TopologyError) in
                try resolve(text, "destinations", in: replay)
            }
            try replay.finish()
            demand = .replay(records: recordsPath, destinations: destinations)
            _ = demandSection.node("synthetic")
        default:
            throw demandSection.error(nil, "needs exactly one of synthetic: {…} or replay: {…}")
        }
        try demandSection.finish()
        var riders = Topology.RiderPlan(processes: processes, demand: demand)
        riders.patienceSeconds = try riderSection.range("patience_s", in: 1...86_400) ?? riders.patienceSeconds
        riders.poolShare = try riderSection.double("pool_share", in: 0...1) ?? riders.poolShare
        riders.scheduledShare = try riderSection.double("scheduled_share", in: 0...1) ?? riders.scheduledShare
        riders.hosts = try hostNames(&riderSection)
        try riderSection.finish()

        var features: [String: FeatureSetting] = [:]
        if var flags = try top.fields("features") {
            for key in Self.keys(of: flags) {
                if flags.node(key)?.mapping == nil {
                    features[key] = try flags.bool(key) == true ? .on : .off
                    continue
                }
                guard var setting = try flags.fields(key) else { continue }
                let share = try setting.double("share", in: 0...1) ?? 1
                let failRate = try setting.double("fail_rate", in: 0...1) ?? 0
                try setting.finish()
                features[key] = FeatureSetting(share: share, failRate: failRate)
            }
            try flags.finish()
        }
        var monitorSection = try top.fields("monitor")
        var webSection = try monitorSection?.fields("web")
        let webPort = try webSection?.int("port", in: 1...65_535)
        try webSection?.finish()
        try monitorSection?.finish()
        var security = try top.fields("security")
        let curve = try security?.bool("curve")
        try security?.finish()
        var endpointSection = try top.fields("endpoints")
        let transport =
            try endpointSection?.choice("transport", ["ipc", "tcp"]).flatMap(Topology.Endpoints.Transport.init) ?? .ipc
        var endpoints = Topology.Endpoints(transport: transport)
        endpoints.host = try endpointSection?.string("host") ?? endpoints.host
        endpoints.basePort = try endpointSection?.int("base_port", in: 1_024...65_000) ?? endpoints.basePort
        let hosts = try readHosts(&top)
        if let coordinator = hosts.first {
            guard transport == .tcp else {
                throw top.error("hosts", "a city across hosts talks over tcp: add endpoints: { transport: tcp }")
            }
            if let host = try endpointSection?.string("host"), host != coordinator.address {
                throw endpointSection!.error(
                    "host",
                    "is \(host), but the coordinator's host (the first of hosts:, \(coordinator.name)) is at \(coordinator.address)"
                )
            }
            endpoints.host = coordinator.address
        }
        try checkHostNames(drivers.hosts, of: "drivers", among: hosts, file: file)
        try checkHostNames(riders.hosts, of: "riders", among: hosts, file: file)
        try endpointSection?.finish()
        try top.finish()
        var topology = Topology(
            name: name, file: file, city: city, speed: speed, duration: duration, startSecondOfDay: start, seed: seed,
            dispatch: dispatch, drivers: drivers, riders: riders, features: features, endpoints: endpoints)
        topology.clockMode = clockMode
        topology.webPort = webPort
        topology.calibration = calibration
        topology.day = day
        topology.latencyMs = Int64(latencyMs)
        topology.curve = curve
        topology.hosts = hosts
        topology.dispatchShards = shards
        topology.border = border
        return topology
    }

    /// `hosts: [{name: NAME, address: ADDRESS}, …]`: names unique, addresses a host name or an IP
    /// address (no scheme, no port: the ports are the endpoints').
    private static func readHosts(_ top: inout YAMLFields) throws(TopologyError) -> [Topology.Host] {
        guard let list = top.node("hosts") else { return [] }
        guard let items = list.sequence, !items.isEmpty else {
            throw top.error("hosts", "must be a list of {name, address}, the coordinator's host first", at: list)
        }
        var hosts: [Topology.Host] = []
        for (index, item) in items.enumerated() {
            var fields = try YAMLFields(item, path: "hosts[\(index)]", file: top.file)
            guard let name = try fields.string("name") else { throw fields.error("name", "is required") }
            guard let address = try fields.string("address") else { throw fields.error("address", "is required") }
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:")
            guard address.allSatisfy(allowed.contains) else {
                throw fields.error("address", "must be a host name or an IP address (no scheme, no port), not '\(address)'")
            }
            guard !hosts.contains(where: { $0.name == name }) else { throw fields.error("name", "'\(name)' is named twice") }
            try fields.finish()
            hosts.append(Topology.Host(name: name, address: address))
        }
        return hosts
    }

    /// Every host a process group names is one of `hosts:`.
    private static func checkHostNames(
        _ names: [String], of section: String, among hosts: [Topology.Host], file: String
    ) throws(TopologyError) {
        for name in names where !hosts.contains(where: { $0.name == name }) {
            throw TopologyError(
                file: file, key: "\(section).host", line: nil,
                reason: hosts.isEmpty
                    ? "names host '\(name)', but the topology has no hosts: section"
                    : "no host named '\(name)' (hosts: \(hosts.map(\.name).joined(separator: ", ")))")
        }
    }

    /// `host: NAME` or `host: [NAME, …]` in a process group: the hosts its processes take in turn.
    private static func hostNames(_ section: inout YAMLFields) throws(TopologyError) -> [String] {
        guard let node = section.node("host") else { return [] }
        if let name = node.scalar?.string, !name.isEmpty { return [name] }
        guard let items = node.sequence, !items.isEmpty else {
            throw section.error("host", "must be a host's name or a list of them", at: node)
        }
        var names: [String] = []
        for item in items {
            guard let name = item.scalar?.string, !name.isEmpty else {
                throw section.error("host", "must be a host's name or a list of them", at: item)
            }
            names.append(name)
        }
        return names
    }

    /// Dispatch's settings; dwell times default to the calibration's, if there is one.
    private static func readDispatch(
        _ top: inout YAMLFields, dwell: TravelTimeModel?, shards: inout Int, border: inout BorderPlan
    ) throws(TopologyError)
        -> DispatchConfiguration
    {
        var configuration = DispatchConfiguration()
        configuration.pickupDwellSeconds = dwell?.pickupDwellSeconds ?? 0
        configuration.dropoffDwellSeconds = dwell?.dropoffDwellSeconds ?? 0
        guard var section = try top.fields("dispatch") else { return configuration }
        shards = try section.int("shards", in: 1...64) ?? 1
        configuration.pickupDwellSeconds =
            try section.double("pickup_dwell_s", in: 0...3_600) ?? configuration.pickupDwellSeconds
        configuration.dropoffDwellSeconds =
            try section.double("dropoff_dwell_s", in: 0...3_600) ?? configuration.dropoffDwellSeconds
        let interval = try section.double("interval_s", in: 1...3_600) ?? 30
        switch try section.choice("strategy", ["greedy", "batched", "on-arrival"]) ?? "batched" {
        case "greedy": configuration.strategy = .greedy(interval: interval)
        case "on-arrival": configuration.strategy = .greedyOnArrival
        default: configuration.strategy = .batched(window: interval)
        }
        configuration.maxPickupSeconds = try section.double("max_pickup_s", in: 1...86_400) ?? configuration.maxPickupSeconds
        configuration.maxMatchWaitSeconds =
            try section.double("max_match_wait_s", in: 1...86_400) ?? configuration.maxMatchWaitSeconds
        configuration.offerTimeoutSeconds =
            try section.double("offer_timeout_s", in: 1...600) ?? configuration.offerTimeoutSeconds
        configuration.candidatesPerRequest = try section.int("candidates", in: 1...10_000) ?? configuration.candidatesPerRequest
        configuration.batchCandidatesPerRequest =
            try section.int("batch_candidates", in: 1...10_000) ?? configuration.batchCandidatesPerRequest
        configuration.scheduledLeadSeconds =
            try section.double("scheduled_lead_s", in: 0...86_400) ?? configuration.scheduledLeadSeconds
        if var pricing = try section.fields("pricing") {
            var p = configuration.pricing
            p.baseCents = try pricing.int("base_cents", in: 0...1_000_000) ?? p.baseCents
            p.centsPerKm = try pricing.int("per_km_cents", in: 0...1_000_000) ?? p.centsPerKm
            p.centsPerMinute = try pricing.int("per_minute_cents", in: 0...1_000_000) ?? p.centsPerMinute
            p.minimumCents = try pricing.int("minimum_cents", in: 0...1_000_000) ?? p.minimumCents
            p.poolFactor = try pricing.double("pool_factor", in: 0.01...1) ?? p.poolFactor
            p.commissionPercent = try pricing.int("commission_percent", in: 0...100) ?? p.commissionPercent
            try pricing.finish()
            configuration.pricing = p
        }
        if var surge = try section.fields("surge") {
            configuration.zoneSize = try surge.double("zone_m", in: 50...100_000) ?? configuration.zoneSize
            configuration.surgeSensitivity = try surge.double("sensitivity", in: 0...100) ?? configuration.surgeSensitivity
            configuration.maxSurge = try surge.double("max", in: 1...100) ?? configuration.maxSurge
            configuration.surgeWindowSeconds = try surge.double("window_s", in: 1...86_400) ?? configuration.surgeWindowSeconds
            try surge.finish()
        }
        if var pool = try section.fields("pool") {
            configuration.poolCapacity = try pool.int("capacity", in: 1...16) ?? configuration.poolCapacity
            configuration.poolDetourFactor = try pool.double("detour_factor", in: 0...10) ?? configuration.poolDetourFactor
            configuration.poolDetourSeconds = try pool.double("detour_s", in: 0...7_200) ?? configuration.poolDetourSeconds
            try pool.finish()
        }
        if var rebalancing = try section.fields("rebalancing") {
            configuration.rebalancing = .towardUnmetDemand(
                interval: try rebalancing.double("interval_s", in: 1...86_400) ?? 120,
                maxMoves: try rebalancing.int("max_moves", in: 1...100_000) ?? 20)
            try rebalancing.finish()
        }
        if var fields = try section.fields("border") {
            border.marginSeconds = try fields.double("margin_s", in: 0...3_600) ?? border.marginSeconds
            border.reachZones = try fields.int("reach_zones", in: 0...100) ?? border.reachZones
            border.patienceSeconds = try fields.double("patience_s", in: 0.001...3_600) ?? border.patienceSeconds
            try fields.finish()
        }
        try section.finish()
        return configuration
    }

    private static func keys(of fields: YAMLFields) -> [String] {
        fields.node.mapping.map { $0.keys.compactMap(\.string) } ?? []
    }
}
