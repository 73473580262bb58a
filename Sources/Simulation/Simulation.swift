import City
import HeapModule
import Randomness
import RideDispatch
import Scenarios

/// What a run produced.
public struct SimulationResult: Sendable {
    public let scenario: String
    public let kpis: KPIReport
    public let violations: [InvariantViolation]
    /// Requests that never ended (must be empty).
    public let unfinished: [RequestID]
    /// Commands dispatch refused (a healthy run has none).
    public let refusals: [String]
    /// Dispatch events processed, and the simulated time the run ended at.
    public let eventCount: Int
    public let endTime: Double

    /// No invariant broke and every request ended.
    public var invariantsHeld: Bool { violations.isEmpty && unfinished.isEmpty }
}

/// A discrete-event runner of the dispatch engine with simulated drivers and riders as plain
/// values: riders ask for rides and give up past their patience; drivers go online and offline
/// by shift, answer offers, and drive their legs in simulated time. Deterministic per seed.
public final class Simulation {
    public let scenario: Scenario
    public let engine: DispatchEngine
    public let kpis: KPIRecorder
    public let checker: InvariantChecker
    /// Every dispatch event in order, when asked for (tests, recordings).
    public private(set) var log: [TimedDispatchEvent] = []
    private let keepLog: Bool

    private enum Action {
        case request(Int)
        case online(Int)
        case offline(Int)
        case respond(DriverID, RequestID, accept: Bool)
        case arrive(DriverID, leg: Int)
        case patience(RequestID)
        case tick
    }

    private struct Pending: Comparable {
        let time: Double
        let order: Int
        let action: Action
        static func < (a: Pending, b: Pending) -> Bool { (a.time, a.order) < (b.time, b.order) }
        static func == (a: Pending, b: Pending) -> Bool { (a.time, a.order) == (b.time, b.order) }
    }

    private var queue = Heap<Pending>()
    private var order = 0
    private var random: SeededGenerator
    private var scheduledTick: Double?
    private var refusals: [String] = []
    private var eventCount = 0
    private var requestsSubmitted = 0
    private var pickupTimes: [RequestID: Double] = [:]
    /// The leg each driver is driving now; an arrival at the end of a superseded leg is never
    /// reported (the driver was re-routed before getting there).
    private var currentLeg: [DriverID: Int] = [:]
    /// Offers still open; a driver does not answer one that ended meanwhile (its rider
    /// cancelled, or it expired).
    private var openOffers: [DriverID: RequestID] = [:]

    /// - Parameters:
    ///   - planner: the router dispatch uses (a contraction hierarchy of the scenario's graph if
    ///     none is given).
    ///   - hierarchies: where that hierarchy is read from if it was built before (and kept if not).
    public init(scenario: Scenario, planner: (any RoutePlanner)? = nil, hierarchies: HierarchyStore? = nil, keepLog: Bool = false)
    {
        self.scenario = scenario
        let travel = planner.map { TravelTimeSchedule(planner: $0) } ?? scenario.travelSchedule(store: hierarchies)
        engine = DispatchEngine(travel: travel, configuration: scenario.dispatch)
        kpis = KPIRecorder(graph: scenario.graph, durationLimit: scenario.duration)
        checker = InvariantChecker(poolCapacity: scenario.dispatch.poolCapacity)
        random = SeededGenerator(seed: scenario.seed)
        self.keepLog = keepLog
    }

    /// Runs until every request has ended (or `limit` seconds of simulated time have passed).
    public func run(limit: Double? = nil) -> SimulationResult {
        let limit = limit ?? scenario.duration + 86_400
        for (index, driver) in scenario.drivers.enumerated() {
            schedule(.online(index), at: driver.shiftStart)
            if driver.shiftEnd.isFinite { schedule(.offline(index), at: driver.shiftEnd) }
        }
        for (index, trip) in scenario.trips.enumerated() { schedule(.request(index), at: trip.time) }
        var time = 0.0
        while let next = queue.popMin(), next.time <= limit {
            time = next.time
            perform(next.action, at: time)
            collect(at: time)
            if time >= scenario.duration, engine.unfinishedCount == 0, requestsSubmitted == scenario.trips.count { break }
        }
        return SimulationResult(
            scenario: scenario.name, kpis: kpis.finish(at: time), violations: checker.violations,
            unfinished: checker.unfinished(), refusals: refusals, eventCount: eventCount, endTime: time)
    }

    private func schedule(_ action: Action, at time: Double) {
        order += 1
        queue.insert(Pending(time: time, order: order, action: action))
    }

    private func perform(_ action: Action, at time: Double) {
        do {
            switch action {
            case .request(let index):
                let trip = scenario.trips[index]
                let id = RequestID(index)
                requestsSubmitted += 1
                try engine.submit(
                    RideRequest(
                        id: id, rider: index, origin: trip.origin, destination: trip.destination,
                        product: trip.product, pickupAt: trip.pickupAt), now: time)
                if let patience = trip.patienceSeconds {
                    schedule(.patience(id), at: max(time, trip.pickupAt ?? time) + patience)
                }
            case .online(let index):
                let driver = scenario.drivers[index]
                try engine.driverOnline(driver.id, at: driver.startNode, now: time)
            case .offline(let index):
                try engine.driverOffline(scenario.drivers[index].id, now: time)
            case .respond(let driver, let request, let accept):
                guard openOffers[driver] == request else { return }
                openOffers[driver] = nil
                try engine.respond(driver: driver, to: request, accept: accept, now: time)
            case .arrive(let driver, let leg):
                guard currentLeg[driver] == leg else { return }
                currentLeg[driver] = nil
                try engine.arrived(driver: driver, leg: leg, now: time)
            case .patience(let request):
                guard engine.outcome(of: request) == nil, pickupTimes[request] == nil else { return }
                try engine.cancel(request, by: .rider, reason: "waited longer than their patience", now: time)
            case .tick:
                scheduledTick = nil
                engine.advance(to: time)
            }
        } catch {
            refusals.append(String(format: "t=%.1f: ", time) + error.description)
        }
    }

    /// Hands dispatch's events to the recorders and turns what drivers are told into their
    /// simulated answers and arrivals.
    private func collect(at time: Double) {
        let events = engine.takeEvents()
        eventCount += events.count
        kpis.record(events)
        checker.record(events)
        if keepLog { log += events }
        for timed in events {
            switch timed.event {
            case .offered(let request, let driver, let expires, _):
                openOffers[driver] = request
                let behaviour = scenario.drivers[driver.rawValue]
                let accept = Double.random(in: 0..<1, using: &random) < behaviour.acceptance
                // An answer after the deadline is never sent: the offer expires instead.
                if time + behaviour.responseSeconds < expires {
                    schedule(.respond(driver, request, accept: accept), at: time + behaviour.responseSeconds)
                }
            case .drive(let driver, let leg):
                var arrival = leg.timeline.arrival
                if let stop = leg.stop, stop.kind == .pickup, let ready = scenario.trips[stop.request.rawValue].pickupAt {
                    arrival = max(arrival, ready)
                }
                currentLeg[driver] = leg.number
                schedule(.arrive(driver, leg: leg.number), at: arrival)
            case .pickedUp(let request, _):
                pickupTimes[request] = timed.time
            case .declined(_, let driver, _):
                openOffers[driver] = nil
            case .finished(let request, _, _):
                for (driver, offered) in openOffers where offered == request { openOffers[driver] = nil }
            case .legCancelled(let driver, let leg):
                if currentLeg[driver] == leg { currentLeg[driver] = nil }
            default:
                break
            }
        }
        if let deadline = engine.nextDeadline, scheduledTick.map({ deadline < $0 }) ?? true {
            scheduledTick = deadline
            schedule(.tick, at: deadline)
        }
    }
}
