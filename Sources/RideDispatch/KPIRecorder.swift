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
    private var odometers: Odometers

    public init(graph: RoadGraph, durationLimit: Double = .infinity) {
        self.graph = graph
        self.durationLimit = durationLimit
        odometers = Odometers(graph: graph)
    }

    public func record(_ events: [TimedDispatchEvent]) {
        for timed in events { record(timed) }
    }

    public func record(_ timed: TimedDispatchEvent) {
        let time = timed.time
        odometers.record(timed)
        defer {
            report.loadedMetres = odometers.total.loaded
            report.emptyMetres = odometers.total.empty
        }
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
        case .pickedUp(let id, _):
            pickedUpAt[id] = time
            report.pickupWait.add(max(0, time - (requestedAt[id] ?? time)))
        case .finished(let id, let outcome, _):
            switch outcome {
            case .completed(let fare):
                report.completed += 1
                if time <= durationLimit { report.completedWithinDuration += 1 }
                if let start = pickedUpAt[id] { report.inVehicle.add(time - start) }
                report.ridersPaidCents += fare.riderPaysCents
                report.driversEarnedCents += fare.driverEarnsCents
                report.platformCents += fare.platformCents
            case .cancelled(let party, _):
                report.cancelled += 1
                if party == .rider { report.cancelledByRider += 1 }
                if party == .driver { report.cancelledByDriver += 1 }
            case .rejected:
                report.rejected += 1
            }
        case .driverState(let driver, let state):
            if let previous = stateSince[driver] {
                report.driverSeconds[previous.state, default: 0] += time - previous.since
            }
            stateSince[driver] = (state, time)
        case .handedOut(let id, _):
            // Counted where it ends: the shard it was handed to counts it again when it arrives.
            report.requests -= 1
            requestedAt[id] = nil
        case .scheduled, .offered, .declined, .requeued, .surge, .drive, .legCancelled:
            break
        }
    }

    /// Closes every open interval at `time` and returns the report.
    public func finish(at time: Double) -> KPIReport {
        odometers.closeAll(at: time)
        report.loadedMetres = odometers.total.loaded
        report.emptyMetres = odometers.total.empty
        for (driver, entry) in stateSince.sorted(by: { $0.key < $1.key }) {
            report.driverSeconds[entry.state, default: 0] += max(0, time - entry.since)
            stateSince[driver] = (entry.state, time)
        }
        return report
    }
}
