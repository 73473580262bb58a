import City

/// A driver where they can start something new from, and when they are there.
struct PlacedDriver {
    let id: DriverID
    let node: Int
    let time: Double
}

/// A driver who could take a request, and how: the plan they would follow and how soon they
/// would reach the rider.
struct Candidate {
    let driver: DriverID
    let seconds: Double
    let plan: [Stop]
}

extension DispatchEngine {
    /// Idle drivers nearest to `node` in a straight line (at most `candidatesPerRequest`), with
    /// their driving time to it, fastest first; only those within the pickup limit.
    func nearestAvailable(
        to node: Int, excluding excluded: Set<DriverID>, limit: Int? = nil
    ) -> [(driver: DriverID, seconds: Double)] {
        let nearest = nearestAvailableByLine(to: node, excluding: excluded, limit: limit ?? configuration.candidatesPerRequest)
        return nearest.compactMap { placed -> (driver: DriverID, seconds: Double)? in
            pickupSeconds(from: placed, to: node).map { (placed.id, $0) }
        }
        .sorted { ($0.seconds, $0.driver) < ($1.seconds, $1.driver) }
    }

    /// How soon a driver where they can start from reaches `node`, if within the pickup limit.
    func pickupSeconds(from placed: PlacedDriver, to node: Int) -> Double? {
        guard let seconds = planner.travelTime(from: placed.node, to: node).map({ $0 + (placed.time - now) }),
            seconds <= configuration.maxPickupSeconds
        else { return nil }
        return seconds
    }

    /// The plan of a driver who takes `request` alone: its pickup, then its drop-off.
    func soloPlan(_ request: RideRequest) -> [Stop] {
        [Stop(.pickup, request.id, at: request.origin), Stop(.dropoff, request.id, at: request.destination)]
    }

    /// The `limit` available drivers nearest to `node` in a straight line, where they can start
    /// from now, nearest first (ties by driver id): those on the move where they are now, those
    /// standing from the grid around `node`.
    func nearestAvailableByLine(to node: Int, excluding excluded: Set<DriverID>, limit: Int) -> [PlacedDriver] {
        var nearest = NearestByLine<DriverID>(limit: limit, target: nodeXY[node], excluding: excluded)
        // The moving first: where they are now may already bound how far the grid is searched.
        if movingPlaces?.time != now {
            movingPlaces = (now, movingAvailable.map { ($0, driverRecord($0).placed(at: now).node) })
        }
        for (id, node) in movingPlaces!.places {
            nearest.consider(id, id: id, at: nodeXY[node])
        }
        standingAvailable.search(into: &nearest) { nodeXY[$0] }
        return nearest.items.map { driverRecord($0).placed(at: now) }
    }

    /// The `limit` drivers of `pool` nearest to `node` in a straight line, nearest first (ties by
    /// driver id, so the order of `pool` never matters).
    func nearestByLine(_ pool: [PlacedDriver], to node: Int, excluding excluded: Set<DriverID>, limit: Int) -> [PlacedDriver] {
        var nearest = NearestByLine<PlacedDriver>(limit: limit, target: nodeXY[node], excluding: excluded)
        for placed in pool { nearest.consider(placed, id: placed.id, at: nodeXY[placed.node]) }
        return nearest.items
    }

    /// How many drivers are available.
    var availableCount: Int { standingAvailable.count + movingAvailable.count }

    /// Every driver who could take `request` now: nearest idle ones, and for POOL, drivers
    /// already carrying or fetching shared riders with room and detour to spare.
    func candidates(for id: RequestID, sharing: [PlacedDriver]) -> [Candidate] {
        let record = requestRecord(id)
        let request = record.request
        let limit: Int =
            if case .batched = configuration.strategy { configuration.batchCandidatesPerRequest } else {
                configuration.candidatesPerRequest
            }
        var found = nearestAvailable(to: request.origin, excluding: record.declinedBy, limit: limit).map {
            Candidate(driver: $0.driver, seconds: $0.seconds, plan: soloPlan(request))
        }
        if request.product == .pool {
            // Only the nearest sharing drivers are worth the dozens of route queries an insertion costs.
            for driver in nearestByLine(
                sharing, to: request.origin, excluding: record.declinedBy, limit: configuration.candidatesPerRequest)
            {
                var insertion = PoolInsertion(engine: self, driver: driver, request: id)
                if let fit = insertion.best() { found.append(fit) }
            }
        }
        return found.sorted { ($0.seconds, $0.driver) < ($1.seconds, $1.driver) }
    }

    /// Drivers whose whole plan is shared rides with a seat left and no offer pending, where they
    /// can start from (in no particular order: every choice among them breaks ties by driver id).
    func sharingPlaced() -> [PlacedDriver] {
        // Only drivers with a plan are looked at (a fifth of the fleet at metro's peak), each
        // record read once: this runs at every matching round while a POOL request waits.
        planned.compactMap { id in
            let record = driverRecord(id)
            // Its riders, counted without a set: a plan holds a few stops.
            var riders: [RequestID] = []
            for stop in record.stops where !riders.contains(stop.request) {
                riders.append(stop.request)
                if riders.count >= configuration.poolCapacity { return nil }
            }
            guard riders.allSatisfy({ requestRecord($0).request.product == .pool }) else { return nil }
            return record.placed(at: now)
        }
    }

    /// One matching round with the configured strategy: offers for waiting requests.
    func match() {
        // Each record looked up once, not twice per comparison.
        let open = waiting.compactMap { id in
            let record = requestRecord(id)
            return record.phase == .waiting ? (since: record.waitingSince, id: id) : nil
        }.sorted { ($0.since, $0.id) < ($1.since, $1.id) }.map(\.id)
        guard !open.isEmpty else { return }
        let sharing = open.contains { requestRecord($0).request.product == .pool } ? sharingPlaced() : []
        guard availableCount > 0 || !sharing.isEmpty else { return }
        switch configuration.strategy {
        case .greedyOnArrival, .greedy:
            matchGreedily(open, sharing: sharing)
        case .batched:
            matchOptimally(open, sharing: sharing)
        }
    }

    /// In arrival order, each request takes the candidate who reaches it soonest.
    private func matchGreedily(_ open: [RequestID], sharing: [PlacedDriver]) {
        var sharing = sharing
        for id in open {
            // An offer takes its driver out of the available ones.
            guard availableCount > 0 || !sharing.isEmpty else { return }
            guard let best = candidates(for: id, sharing: sharing).first else { continue }
            offer(id, to: best)
            sharing.removeAll { $0.id == best.driver }
        }
    }

    /// The offers that minimise the total time to reach the riders, all waiting requests at once.
    private func matchOptimally(_ open: [RequestID], sharing: [PlacedDriver]) {
        var columns: [DriverID] = []
        var columnOf: [DriverID: Int] = [:]
        var arcs: [MinCostAssignment.Arc] = []
        var plans: [[Int: Candidate]] = []
        for (row, id) in open.enumerated() {
            var byColumn: [Int: Candidate] = [:]
            for candidate in candidates(for: id, sharing: sharing) {
                let column =
                    columnOf[candidate.driver]
                    ?? {
                        columns.append(candidate.driver)
                        columnOf[candidate.driver] = columns.count - 1
                        return columns.count - 1
                    }()
                byColumn[column] = candidate
                arcs.append(.init(row: row, column: column, cost: Int((candidate.seconds * 1000).rounded())))
            }
            plans.append(byColumn)
        }
        // Leaving a request unmatched costs as much as four of the longest allowed pickups.
        let unassigned = Int(min(configuration.maxPickupSeconds, 86_400) * 4_000)
        let assignment = MinCostAssignment.solve(rows: open.count, columns: columns.count, arcs: arcs, unassignedCost: unassigned)
        for (row, column) in assignment.enumerated() {
            if let column, let candidate = plans[row][column] { offer(open[row], to: candidate) }
        }
    }

    func offer(_ id: RequestID, to candidate: Candidate) {
        let expires = now + configuration.offerTimeoutSeconds
        updateDriver(candidate.driver) {
            $0.offer = DriverRecord.Offer(request: id, expires: expires, plan: candidate.plan, pickupSeconds: candidate.seconds)
        }
        offerExpiries.add(expires, for: candidate.driver)
        updateRequest(id) { $0.phase = .offered(candidate.driver) }
        emit(.offered(id, candidate.driver, expires: expires, pickupSeconds: candidate.seconds))
        publishState(of: candidate.driver)
    }
}
