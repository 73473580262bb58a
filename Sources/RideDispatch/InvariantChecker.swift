/// A broken promise of dispatch, found in its event stream.
public struct InvariantViolation: Sendable, Equatable, Codable, CustomStringConvertible {
    public let time: Double
    public let message: String
    public var description: String { String(format: "t=%.1f s: ", time) + message }
}

/// Checks the promises dispatch makes, from its events alone (so the same checks serve a run in
/// one process and a recorded multi-process run): every request ends exactly once; no driver is
/// in two trips at once (shared rides within capacity) or holds two offers; every fare is
/// non-negative and conserved between rider, driver and platform; every split fare's shares sum
/// to the fare, each payer charged once.
public final class InvariantChecker {
    public let poolCapacity: Int
    public private(set) var violations: [InvariantViolation] = []
    private var products: [RequestID: RideRequest.Product] = [:]
    private var finished: Set<RequestID> = []
    private var load: [DriverID: Set<RequestID>] = [:]
    private var offers: [DriverID: RequestID] = [:]
    private var splitRequests: Set<RequestID> = []
    public private(set) var ridersPaidCents = 0
    public private(set) var driversEarnedCents = 0
    public private(set) var platformCents = 0

    public init(poolCapacity: Int) {
        self.poolCapacity = poolCapacity
    }

    /// What the checker has seen: what a snapshot keeps.
    public struct State: Codable, Sendable {
        var violations: [InvariantViolation]
        var products: [RequestID: RideRequest.Product]
        var finished: Set<RequestID>
        var load: [DriverID: Set<RequestID>]
        var offers: [DriverID: RequestID]
        var splitRequests: Set<RequestID>
        var ridersPaidCents: Int
        var driversEarnedCents: Int
        var platformCents: Int
        var splitCount: Int
    }

    public var state: State {
        State(
            violations: violations, products: products, finished: finished, load: load, offers: offers,
            splitRequests: splitRequests, ridersPaidCents: ridersPaidCents, driversEarnedCents: driversEarnedCents,
            platformCents: platformCents, splitCount: splitCount)
    }

    public func restore(_ state: State) {
        violations = state.violations
        products = state.products
        finished = state.finished
        load = state.load
        offers = state.offers
        splitRequests = state.splitRequests
        ridersPaidCents = state.ridersPaidCents
        driversEarnedCents = state.driversEarnedCents
        platformCents = state.platformCents
        splitCount = state.splitCount
    }

    public func record(_ events: [TimedDispatchEvent]) {
        for timed in events { record(timed) }
    }

    public func record(_ timed: TimedDispatchEvent) {
        let time = timed.time
        func fail(_ message: String) { violations.append(InvariantViolation(time: time, message: message)) }
        switch timed.event {
        case .requested(let id, let request, _):
            if products[id] != nil { fail("\(id) was requested twice") }
            products[id] = request.product
        case .offered(let id, let driver, _, _):
            if finished.contains(id) { fail("\(id) was offered to \(driver) after it ended") }
            if let open = offers[driver] { fail("\(driver) was offered \(id) while still holding an offer for \(open)") }
            offers[driver] = id
        case .declined(_, let driver, _):
            offers[driver] = nil
        case .matched(let id, let driver, _):
            offers[driver] = nil
            if finished.contains(id) { fail("\(id) was matched after it ended") }
            let current = load[driver, default: []]
            let exclusive = products[id] != .pool || current.contains { products[$0] != .pool }
            if !current.isEmpty && exclusive {
                fail("\(driver) was given \(id) while in trip \(current.sorted().map(\.description).joined(separator: ", "))")
            }
            if current.count + 1 > poolCapacity {
                fail("\(driver) was given \(current.count + 1) shared riders, capacity \(poolCapacity)")
            }
            load[driver, default: []].insert(id)
        case .requeued(let id, let driver, _):
            load[driver]?.remove(id)
        case .finished(let id, let outcome, let driver):
            if !finished.insert(id).inserted { fail("\(id) ended twice (again as \(outcome.kind))") }
            if products[id] == nil { fail("\(id) ended but was never requested") }
            if let driver {
                load[driver]?.remove(id)
                if offers[driver] == id { offers[driver] = nil }
            }
            for (holder, offered) in offers where offered == id { offers[holder] = nil }
            if case .completed(let fare) = outcome {
                if !fare.isConserved { fail("\(id)'s fare is not conserved: \(fare)") }
                ridersPaidCents += fare.riderPaysCents
                driversEarnedCents += fare.driverEarnsCents
                platformCents += fare.platformCents
            }
        case .handedOut(let id, _):
            // Over here without an ending: what comes after is the other shard's, and nothing of it
            // may come here any more (it counts as over).
            if !finished.insert(id).inserted { fail("\(id) was handed over after it ended") }
            if products[id] == nil { fail("\(id) was handed over but was never requested") }
            for (holder, offered) in offers where offered == id { offers[holder] = nil }
        case .driverState(let driver, .offline):
            if let open = load[driver], !open.isEmpty { fail("\(driver) went offline still holding \(open.sorted())") }
        case .scheduled, .drive, .legCancelled, .pickedUp, .driverState, .surge:
            break
        }
    }

    /// Checks a fare split among riders: the shares sum to the fare, nobody pays twice, and no
    /// ride's fare is split twice.
    public func recordSplit(of id: RequestID, fareCents: Int, shares: [(rider: String, cents: Int)], at time: Double) {
        func fail(_ message: String) { violations.append(InvariantViolation(time: time, message: message)) }
        if !splitRequests.insert(id).inserted { fail("\(id)'s fare was split twice") }
        let total = shares.reduce(0) { $0 + $1.cents }
        if total != fareCents { fail("\(id)'s split shares sum to \(total) cents, its fare is \(fareCents)") }
        if Set(shares.map(\.rider)).count != shares.count { fail("\(id)'s split charges a rider twice") }
        if shares.contains(where: { $0.cents < 0 }) { fail("\(id)'s split has a negative share") }
        splitCount += 1
    }

    /// Fares split among riders so far.
    public private(set) var splitCount = 0

    /// Requests that never ended (call at the end of a run that should have ended them all).
    public func unfinished() -> [RequestID] {
        products.keys.filter { !finished.contains($0) }.sorted()
    }

    public var requestCount: Int { products.count }
}
