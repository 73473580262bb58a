extension DispatchEngine {
    /// Checks that the engine's books agree with one another after a command. Runs in debug
    /// builds (and so in every test) after every command, as swift-collections' `Heap` checks its
    /// invariants; release builds skip it.
    func checkInvariants() {
        assert(
            {
                if let broken = brokenInvariant() { assertionFailure("dispatch engine after a command: \(broken)") }
                return true
            }())
    }

    /// The first way the books disagree, or nil when they agree: the phase of every request with
    /// the driver records that carry it, the waiting and scheduled sets, the count of unfinished
    /// requests, and every driver's plan.
    func brokenInvariant() -> String? {
        for (id, record) in drivers where record.heldFor != nil {
            guard record.online, record.offer == nil, record.stops.isEmpty else {
                return "\(id) is held for \(record.heldFor!) but is \(record.state)"
            }
        }
        var unfinished = 0
        for (id, record) in requests {
            if !record.isFinished { unfinished += 1 }
            if scheduled.contains(id) != (record.phase == .scheduled) {
                return "\(id) is \(record.phase) but scheduled is \(scheduled.contains(id))"
            }
            switch record.phase {
            case .waiting:
                guard waiting.contains(id) else { return "\(id) waits but is not in matching" }
            case .offered(let driver):
                guard waiting.contains(id) else { return "\(id) is offered but not in matching" }
                guard drivers[driver]?.offer?.request == id else {
                    return "\(id) is offered to \(driver), who holds no offer of it"
                }
            case .assigned(let driver):
                guard !waiting.contains(id) else { return "\(id) is assigned to \(driver) but still in matching" }
                guard let stops = drivers[driver]?.stops, stops.contains(where: { $0.request == id && $0.kind == .pickup }) else {
                    return "\(id) is assigned to \(driver), whose plan has no pickup for it"
                }
            case .aboard(let driver):
                guard let stops = drivers[driver]?.stops, stops.contains(where: { $0.request == id && $0.kind == .dropoff }),
                    !stops.contains(where: { $0.request == id && $0.kind == .pickup })
                else { return "\(id) is aboard \(driver)'s car, whose plan does not drop it off (or still picks it up)" }
            case .scheduled, .finished, .frozen, .handedOut:
                guard !waiting.contains(id) else { return "\(id) is \(record.phase) but in matching" }
            }
        }
        guard unfinished == unfinishedCount else {
            return "\(unfinished) requests are unfinished, the count says \(unfinishedCount)"
        }
        for id in waiting where requests[id] == nil { return "\(id) is in matching without a record" }
        for (id, driver) in drivers {
            if let broken = brokenPlan(of: driver) { return "\(id): \(broken)" }
        }
        let available = drivers.values.filter(\.isAvailable)
        let moving = Set(available.filter { $0.leg != nil }.map(\.id))
        guard moving == movingAvailable, standingAvailable.count == available.count - moving.count else {
            return "matching's index of available drivers disagrees with their records"
        }
        guard planned == scannedPlanned else {
            return "matching's index of drivers with a plan disagrees with their records"
        }
        return nil
    }

    private func brokenPlan(of driver: DriverRecord) -> String? {
        if !driver.online {
            guard driver.stops.isEmpty, driver.offer == nil, driver.leg == nil else {
                return "offline with a plan, an offer or a leg"
            }
            return nil
        }
        if let offer = driver.offer, requests[offer.request]?.phase != .offered(driver.id) {
            return "holds an offer of \(offer.request), which is not offered to them"
        }
        for stop in driver.stops {
            switch requests[stop.request]?.phase {
            case .assigned(driver.id)?, .aboard(driver.id)?: continue
            default: return "plans a \(stop.kind.rawValue) for \(stop.request), which is not theirs"
            }
        }
        if let stop = driver.leg?.stop, stop != driver.stops.first {
            return "drives to a stop that is not the first of their plan"
        }
        let riders = Set(driver.stops.map(\.request)).count
        guard riders <= max(1, configuration.poolCapacity) else { return "carries or fetches \(riders) riders" }
        return nil
    }
}
