import City

/// Computes a ``KPIReport`` from dispatch's events as they happen.
public final class KPIRecorder {
    public let graph: RoadGraph
    /// Dropoffs after this simulated time do not count as within the duration.
    public let durationLimit: Double
    public private(set) var report = KPIReport()
    private var requestedAt: [RequestID: Double] = [:]
    private var matchedOnce: Set<RequestID> = []
    private var pickedUpAt: [RequestID: Double] = [:]
    private var stateSince: [DriverID: (state: DriverState, since: Double)] = [:]
    private var openLeg: [DriverID: (leg: Leg, loaded: Bool)] = [:]
    private var aboard: [DriverID: Int] = [:]

    public init(graph: RoadGraph, durationLimit: Double = .infinity) {
        self.graph = graph
        self.durationLimit = durationLimit
    }

    public func record(_ events: [TimedDispatchEvent]) {
        for timed in events { record(timed) }
    }

    public func record(_ timed: TimedDispatchEvent) {
        let time = timed.time
        switch timed.event {
        case .requested(let id, let request, let quote):
            report.requests += 1
            requestedAt[id] = max(time, request.pickupAt ?? time)
            report.surgeQuoted[quote.surge, default: 0] += 1
        case .matched(let id, _, _):
            if matchedOnce.insert(id).inserted {
                report.matched += 1
                report.timeToMatch.add(max(0, time - (requestedAt[id] ?? time)))
            }
        case .pickedUp(let id, let driver):
            pickedUpAt[id] = time
            report.pickupWait.add(max(0, time - (requestedAt[id] ?? time)))
            closeLeg(of: driver, at: time)
            aboard[driver, default: 0] += 1
        case .finished(let id, let outcome, let driver):
            switch outcome {
            case .completed(let fare):
                report.completed += 1
                if time <= durationLimit { report.completedWithinDuration += 1 }
                if let start = pickedUpAt[id] { report.inVehicle.add(time - start) }
                report.ridersPaidCents += fare.riderPaysCents
                report.driversEarnedCents += fare.driverEarnsCents
                report.platformCents += fare.platformCents
                if let driver {
                    closeLeg(of: driver, at: time)
                    aboard[driver, default: 1] -= 1
                }
            case .cancelled(let party, _):
                report.cancelled += 1
                if party == .rider { report.cancelledByRider += 1 }
                if party == .driver {
                    report.cancelledByDriver += 1
                    if let driver { aboard[driver] = max(0, aboard[driver, default: 0] - 1) }
                }
            case .rejected:
                report.rejected += 1
            }
        case .drive(let driver, let leg):
            closeLeg(of: driver, at: time)
            openLeg[driver] = (leg, aboard[driver, default: 0] > 0)
        case .driverState(let driver, let state):
            if let previous = stateSince[driver] {
                report.driverSeconds[previous.state, default: 0] += time - previous.since
            }
            stateSince[driver] = (state, time)
            if state == .idle || state == .offline { closeLeg(of: driver, at: time) }
        case .legCancelled(let driver, _):
            closeLeg(of: driver, at: time)
        case .scheduled, .offered, .declined, .requeued, .surge:
            break
        }
    }

    /// Closes every open interval at `time` and returns the report.
    public func finish(at time: Double) -> KPIReport {
        for driver in openLeg.keys.sorted() { closeLeg(of: driver, at: time) }
        for (driver, entry) in stateSince.sorted(by: { $0.key < $1.key }) {
            report.driverSeconds[entry.state, default: 0] += max(0, time - entry.since)
            stateSince[driver] = (entry.state, time)
        }
        return report
    }

    /// Counts the distance driven on the driver's open leg up to `time`.
    private func closeLeg(of driver: DriverID, at time: Double) {
        guard let (leg, loaded) = openLeg.removeValue(forKey: driver) else { return }
        let nodes = leg.timeline.route.nodes
        let reached = leg.timeline.lastNodeIndex(at: time)
        var metres = 0.0
        for index in 0..<reached {
            if let edge = graph.fastestEdge(from: nodes[index], to: nodes[index + 1]) { metres += Double(graph.edgeLength[edge]) }
        }
        if loaded { report.loadedMetres += metres } else { report.emptyMetres += metres }
    }
}
