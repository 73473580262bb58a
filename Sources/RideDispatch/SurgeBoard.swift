import DequeModule

/// Surge multipliers per zone, from recent requests against idle drivers, updated every minute.
struct SurgeBoard: Codable {
    static let updateInterval = 60.0

    var multiplier: [Double]
    /// Requests in the surge window: when and in which zone.
    var recent = Deque<Arrival>()
    var nextUpdate: Double? = SurgeBoard.updateInterval

    init(zoneCount: Int) {
        multiplier = [Double](repeating: 1, count: zoneCount)
    }

    /// A request in the surge window.
    struct Arrival: Codable {
        let time: Double
        let zone: Int
    }

    mutating func record(zone: Int, at time: Double) { recent.append(Arrival(time: time, zone: zone)) }

    /// Requests per zone within the last `window` seconds before `now` (older ones are dropped).
    mutating func demand(now: Double, window: Double, zoneCount: Int) -> [Int] {
        while let first = recent.first, first.time < now - window { recent.removeFirst() }
        var counts = [Int](repeating: 0, count: zoneCount)
        for entry in recent { counts[entry.zone] += 1 }
        return counts
    }
}

extension DispatchEngine {
    /// Idle, not repositioning, drivers per zone.
    func idleSupply() -> [Int] {
        var supply = [Int](repeating: 0, count: zones.zoneCount)
        for record in drivers.values where record.isAvailable {
            supply[zones.zone(of: record.position(at: now).node)] += 1
        }
        return supply
    }

    /// Recomputes surge when due: 1 + sensitivity × (expected demand − idle supply) / supply, in steps of 0.1,
    /// between 1 and the configured maximum; publishes the zones that changed.
    func updateSurge() {
        guard let due = surge.nextUpdate, due <= now else { return }
        surge.nextUpdate = Self.nextTime(after: due, every: SurgeBoard.updateInterval, now: now)
        let demand = surge.demand(now: now, window: configuration.surgeWindowSeconds, zoneCount: zones.zoneCount)
        let supply = idleSupply()
        for zone in 0..<zones.zoneCount {
            let expected = Double(demand[zone]) * configuration.surgeHorizonSeconds / configuration.surgeWindowSeconds
            let shortfall = max(0, expected - Double(supply[zone]))
            let excess: Double = shortfall / Double(max(1, supply[zone]))
            let raw: Double = 1 + configuration.surgeSensitivity * excess
            let value = min(configuration.maxSurge, (raw * 10).rounded() / 10)
            if value != surge.multiplier[zone] {
                surge.multiplier[zone] = value
                emit(.surge(zone: zone, multiplier: value))
            }
        }
    }
}
