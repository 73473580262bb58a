extension DispatchEngine {
    /// Sends idle drivers from zones with more drivers than recent demand to the nearest zones
    /// with more demand than drivers, at most `maxMoves` of them.
    func rebalance(maxMoves: Int) {
        let demand = surge.demand(now: now, window: configuration.surgeWindowSeconds, zoneCount: zones.zoneCount)
        var wanted = demand
        for id in waiting { wanted[zones.zone(of: requestRecord(id).request.origin)] += 1 }
        var spare: [(driver: DriverID, zone: Int)] = []
        var supply = [Int](repeating: 0, count: zones.zoneCount)
        // The standing drivers picked out first and sorted by id alone: sorting every record
        // moved thousands of whole records for the few that stand.
        let standing = drivers.values.lazy.filter { $0.isAvailable && $0.leg == nil }.map { (id: $0.id, node: $0.node) }
        for (id, node) in standing.sorted(by: { $0.id < $1.id }) {
            let zone = zones.zone(of: node)
            supply[zone] += 1
            if supply[zone] > wanted[zone] { spare.append((id, zone)) }
        }
        let missingByZone: [Int] = (0..<zones.zoneCount).map { wanted[$0] - supply[$0] }
        let short: [Int] = (0..<zones.zoneCount)
            .filter { (zone: Int) -> Bool in missingByZone[zone] > 0 && zones.centreNode[zone] >= 0 }
            .sorted { (a: Int, b: Int) -> Bool in (missingByZone[a], b) > (missingByZone[b], a) }
        var moves = 0
        for zone in short {
            var missing = missingByZone[zone]
            while missing > 0, moves < maxMoves, !spare.isEmpty {
                let nearest = nearestSpare(spare, to: zone)
                drive(spare.remove(at: nearest).driver, to: Int(zones.centreNode[zone]), stop: nil)
                missing -= 1
                moves += 1
            }
        }
    }

    private func nearestSpare(_ spare: [(driver: DriverID, zone: Int)], to zone: Int) -> Int {
        var best = 0
        for index in spare.indices.dropFirst() {
            let distance = zones.distance(from: spare[index].zone, to: zone)
            let bestDistance = zones.distance(from: spare[best].zone, to: zone)
            if (distance, spare[index].driver) < (bestDistance, spare[best].driver) { best = index }
        }
        return best
    }
}
