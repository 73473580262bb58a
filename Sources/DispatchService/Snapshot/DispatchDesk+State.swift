import RideDispatch

extension DispatchDesk {
    /// Everything the desk and its engine have learnt: what a snapshot keeps. A desk made again
    /// from the same topology and given this state acts exactly as this one would.
    struct State: Codable, Sendable {
        var engine: DispatchEngine.State
        var checker: InvariantChecker.State
        var odometers: Odometers.State
        var sessions: [String: DeskSession]
        var sessionOfPeer: [[UInt8]: String]
        var requests: NameTable<RequestID>.State
        var riderOfRequest: [RequestID: String]
        var drivers: NameTable<DriverID>.State
        var riderLines: [String: RiderLine]
        var driverLines: [String: DriverLine]
        var offers: OfferBook
        var sharing: RideSharing
        var memory: ReplyMemory
        var quotes: Int
        var legsLookedAt: Double
        var legChecks: DeadlineQueue<String>
        var refused: Int
        var unexpectedRefusals: Int
        var forbiddenCount: Int
        var stopRequested: Bool
        var driversHandedOver: Int
        var border: BorderDesk?
    }

    /// The desk's state as it stands, between inputs (its collections shared, not copied).
    var state: State {
        State(
            engine: engine.state, checker: checker.state, odometers: odometers.state, sessions: sessions,
            sessionOfPeer: sessionOfPeer, requests: requests.state, riderOfRequest: riderOfRequest,
            drivers: drivers.state, riderLines: riderLines, driverLines: driverLines, offers: offers, sharing: sharing,
            memory: memory, quotes: quotes, legsLookedAt: legsLookedAt, legChecks: legChecks, refused: refused,
            unexpectedRefusals: unexpectedRefusals, forbiddenCount: forbiddenCount, stopRequested: stopRequested,
            driversHandedOver: driversHandedOver, border: border)
    }

    /// The stored properties that are not the desk's state: what it was made with and what is
    /// worked out from that (``State`` holds every other one; tests compare).
    static let notState: Set<String> = ["settings", "snap", "snapped"]

    /// Puts the desk in `state` (taken from a desk of the same topology).
    func restore(_ state: State) {
        engine.restore(state.engine)
        checker.restore(state.checker)
        odometers.restore(state.odometers)
        sessions = state.sessions
        sessionOfPeer = state.sessionOfPeer
        requests.restore(state.requests)
        riderOfRequest = state.riderOfRequest
        drivers.restore(state.drivers)
        riderLines = state.riderLines
        driverLines = state.driverLines
        offers = state.offers
        sharing = state.sharing
        memory = state.memory
        quotes = state.quotes
        legsLookedAt = state.legsLookedAt
        legChecks = state.legChecks
        refused = state.refused
        unexpectedRefusals = state.unexpectedRefusals
        forbiddenCount = state.forbiddenCount
        stopRequested = state.stopRequested
        driversHandedOver = state.driversHandedOver
        border = state.border
    }
}
