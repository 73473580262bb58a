extension DispatchEngine {
    /// Everything the engine has learnt since it was made: what a snapshot keeps, so that an
    /// engine made again from the same city and configuration and given this state acts exactly
    /// as this one would (``restore(_:)``). The roads, zones and routers are not in it: they come
    /// from the topology.
    public struct State: Codable, Sendable {
        var now: Double
        var drivers: [DriverID: DriverRecord]
        var requests: [RequestID: RequestRecord]
        var waiting: Set<RequestID>
        var scheduled: Set<RequestID>
        var nextMatching: Double?
        var surge: SurgeBoard
        var nextRebalancing: Double?
        var standingAvailable: DriverGrid
        var movingAvailable: Set<DriverID>
        var offerExpiries: DeadlineQueue<DriverID>
        var matchDeadlines: DeadlineQueue<RequestID>
        var scheduledEntries: DeadlineQueue<RequestID>
        var unfinishedCount: Int

        /// Requests taken so far (for reports on a snapshot).
        public var requestCount: Int { requests.count }

        /// Its biggest parts by name, for measuring what a snapshot costs (`ribcity bench recovery`).
        public var parts: [(name: String, value: any Codable)] {
            [
                ("requests", requests), ("drivers", drivers), ("available drivers", standingAvailable),
                ("surge", surge), ("offer expiries", offerExpiries), ("match deadlines", matchDeadlines),
                ("scheduled entries", scheduledEntries),
            ]
        }
    }

    /// The engine's state as it stands, between commands (once their events are taken). Its
    /// collections are shared until either side changes them: taking it costs no copy.
    public var state: State {
        State(
            now: now, drivers: drivers, requests: requests, waiting: waiting, scheduled: scheduled,
            nextMatching: nextMatching, surge: surge, nextRebalancing: nextRebalancing,
            standingAvailable: standingAvailable, movingAvailable: movingAvailable, offerExpiries: offerExpiries,
            matchDeadlines: matchDeadlines, scheduledEntries: scheduledEntries, unfinishedCount: unfinishedCount)
    }

    /// Puts the engine in `state` (taken from an engine of the same city and configuration).
    public func restore(_ state: State) {
        now = state.now
        drivers = state.drivers
        requests = state.requests
        waiting = state.waiting
        scheduled = state.scheduled
        nextMatching = state.nextMatching
        surge = state.surge
        nextRebalancing = state.nextRebalancing
        standingAvailable = state.standingAvailable
        movingAvailable = state.movingAvailable
        planned = scannedPlanned
        forgetWhereDriversAre()
        offerExpiries = state.offerExpiries
        matchDeadlines = state.matchDeadlines
        scheduledEntries = state.scheduledEntries
        unfinishedCount = state.unfinishedCount
        checkInvariants()
    }

    /// The stored properties that are not the engine's state: what it was made with, what is
    /// worked out from that, and caches (``State`` holds every other one; tests compare).
    public static let notState: Set<String> = [
        "configuration", "travel", "graph", "zones", "nodeXY", "movingPlaces", "lastPickupEstimate",
        "outbox", "planned",
    ]
}
