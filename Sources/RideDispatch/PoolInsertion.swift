/// Where a shared-ride request fits into a driver's plan: every place to insert its pickup and
/// (later) its dropoff is tried, keeping the vehicle within capacity and every rider's ride within
/// the detour limit; the fit that finishes the plan soonest wins.
struct PoolInsertion {
    let engine: DispatchEngine
    let driver: PlacedDriver
    let request: RequestID
    /// Travel times asked so far, by start and end node: every plan tried shares most legs.
    private var travel: [Int64: Double] = [:]
    /// Each rider's direct trip time and, once aboard, when they were picked up: read from the
    /// records once for all the plans tried (a plan holds a few riders, so a list is searched).
    private var riders: [(request: RequestID, direct: Double, pickedUpAt: Double?)] = []
    /// The pick-up times of the plan being evaluated, parallel to `riders` (kept, not remade).
    private var pickups: [Double?] = []

    init(engine: DispatchEngine, driver: PlacedDriver, request: RequestID) {
        self.engine = engine
        self.driver = driver
        self.request = request
    }

    mutating func best() -> Candidate? {
        let record = engine.driverRecord(driver.id)
        let aboard = record.aboard
        let start = (node: driver.node, time: driver.time)
        let new = engine.requestRecord(request).request
        let pickup = Stop(.pickup, request, at: new.origin)
        let dropoff = Stop(.dropoff, request, at: new.destination)
        let stops = record.stops.count
        // Every (pickup, dropoff) pair of places asks at most a few legs more than the plan has.
        travel.reserveCapacity((stops + 2) * (stops + 3))
        for rider in record.stops.map(\.request) + [request] where !riders.contains(where: { $0.request == rider }) {
            let known = engine.requestRecord(rider)
            riders.append((rider, known.quote.tripSeconds, aboard.contains(rider) ? known.pickedUpAt ?? engine.now : nil))
        }
        for rider in aboard where !riders.contains(where: { $0.request == rider }) {
            let known = engine.requestRecord(rider)
            riders.append((rider, known.quote.tripSeconds, known.pickedUpAt ?? engine.now))
        }
        var best: (finish: Double, candidate: Candidate)?
        for i in 0...stops {
            for j in i...stops {
                var plan = record.stops
                plan.insert(dropoff, at: j)
                plan.insert(pickup, at: i)
                guard let outcome = evaluate(plan, aboard: aboard, from: start) else { continue }
                if best == nil || outcome.finish < best!.finish {
                    best = (outcome.finish, Candidate(driver: driver.id, seconds: outcome.pickup - engine.now, plan: plan))
                }
            }
        }
        return best?.candidate
    }

    /// When the plan ends and when the new rider is picked up, or `nil` if it breaks a limit.
    private mutating func evaluate(
        _ plan: [Stop], aboard: [RequestID], from start: (node: Int, time: Double)
    ) -> (finish: Double, pickup: Double)? {
        let configuration = engine.configuration
        var time = start.time
        var node = start.node
        var occupancy = aboard.count
        pickups.removeAll(keepingCapacity: true)
        pickups.append(contentsOf: riders.lazy.map(\.pickedUpAt))
        var newPickup = 0.0
        for stop in plan {
            guard let leg = seconds(from: node, to: stop.node) else { return nil }
            time += leg
            node = stop.node
            let rider = riders.firstIndex { $0.request == stop.request }!
            switch stop.kind {
            case .pickup:
                occupancy += 1
                guard occupancy <= configuration.poolCapacity else { return nil }
                pickups[rider] = time
                if stop.request == request {
                    newPickup = time
                    guard time - engine.now <= configuration.maxPickupSeconds else { return nil }
                }
            case .dropoff:
                occupancy -= 1
                guard
                    time - pickups[rider]! <= riders[rider].direct * (1 + configuration.poolDetourFactor)
                        + configuration.poolDetourSeconds
                else {
                    return nil
                }
            }
        }
        return (time, newPickup)
    }

    private mutating func seconds(from a: Int, to b: Int) -> Double? {
        let key = Int64(a) << 32 | Int64(b)
        if let known = travel[key] { return known }
        let found = engine.planner.travelTime(from: a, to: b)
        travel[key] = found
        return found
    }
}
