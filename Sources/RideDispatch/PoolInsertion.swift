/// Where a shared-ride request fits into a driver's plan: every place to insert its pickup and
/// (later) its dropoff is tried, keeping the vehicle within capacity and every rider's ride within
/// the detour limit; the fit that finishes the plan soonest wins.
struct PoolInsertion {
    let engine: DispatchEngine
    let driver: PlacedDriver
    let request: RequestID
    private var travel: [Int64: Double] = [:]

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
        var best: (finish: Double, candidate: Candidate)?
        for i in 0...record.stops.count {
            for j in i...record.stops.count {
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
        var pickedUp: [RequestID: Double] = [:]
        for rider in aboard { pickedUp[rider] = engine.requestRecord(rider).pickedUpAt ?? engine.now }
        var newPickup = 0.0
        for stop in plan {
            guard let leg = seconds(from: node, to: stop.node) else { return nil }
            time += leg
            node = stop.node
            switch stop.kind {
            case .pickup:
                occupancy += 1
                guard occupancy <= configuration.poolCapacity else { return nil }
                pickedUp[stop.request] = time
                if stop.request == request {
                    newPickup = time
                    guard time - engine.now <= configuration.maxPickupSeconds else { return nil }
                }
            case .dropoff:
                occupancy -= 1
                let direct = engine.requestRecord(stop.request).quote.tripSeconds
                guard
                    time - pickedUp[stop.request]! <= direct * (1 + configuration.poolDetourFactor)
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
