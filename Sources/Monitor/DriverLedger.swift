import Wire

/// One row per driver of a run, from dispatch's events on the bus: what an analyst loads as
/// `drivers.csv` — time in each state, trips, earnings, distance driven empty and loaded.
public struct DriverLedger: Sendable {
    /// One driver over the run so far.
    public struct Driver: Sendable, Equatable {
        public var driverID: String
        /// Seconds in each state (`offline` included), up to the latest event or ``rows(at:)``.
        public var seconds: [Wire.DriverState: Double] = [:]
        public var trips = 0
        public var earningsCents: Int64 = 0
        public var emptyMetres: UInt32 = 0
        public var loadedMetres: UInt32 = 0
        var state: Wire.DriverState?
        var since: Int64 = 0

        public init(driverID: String) {
            self.driverID = driverID
        }

        /// Seconds in any state but offline.
        public var onlineSeconds: Double { seconds.filter { $0.key != .offline }.values.reduce(0, +) }
        /// The share of the distance driven empty.
        public var deadheadShare: Double {
            emptyMetres + loadedMetres > 0 ? Double(emptyMetres) / Double(emptyMetres + loadedMetres) : 0
        }
    }

    public static let header = CSV.line([
        "driver_id", "online_s", "idle_s", "offered_s", "en_route_s", "on_trip_s", "trips", "earnings_cents", "empty_m",
        "loaded_m", "deadhead_share",
    ])

    private var drivers: [String: Driver] = [:]

    public init() {}

    /// Applies one bus envelope. Each envelope once: the caller drops repeats (a restored
    /// dispatch publishes its last events again).
    public mutating func apply(_ envelope: Envelope) {
        guard case .dispatchEvent(let event)? = envelope.body, !event.driverID.isEmpty else { return }
        var driver = drivers[event.driverID] ?? Driver(driverID: event.driverID)
        switch event.kind {
        case .driverStateChanged:
            driver.close(at: envelope.simTimeMs)
            driver.state = event.driverState
            driver.emptyMetres = max(driver.emptyMetres, event.emptyMetres)
            driver.loadedMetres = max(driver.loadedMetres, event.loadedMetres)
        case .tripCompleted:
            driver.trips += 1
            driver.earningsCents += event.driverEarnsCents
        default:
            return
        }
        drivers[event.driverID] = driver
    }

    /// Every driver, its time counted up to simulated `milliseconds`, in name order.
    public func rows(at milliseconds: Int64) -> [Driver] {
        drivers.values.map { driver in
            var driver = driver
            driver.close(at: milliseconds)
            return driver
        }.sorted { ($0.driverID.count, $0.driverID) < ($1.driverID.count, $1.driverID) }
    }

    /// A driver as a `drivers.csv` line.
    public static func csvLine(_ driver: Driver) -> String {
        let seconds = { (state: Wire.DriverState) in String(format: "%.0f", driver.seconds[state] ?? 0) }
        return CSV.line([
            driver.driverID, String(format: "%.0f", driver.onlineSeconds), seconds(.idle), seconds(.offered), seconds(.enRoute),
            seconds(.onTrip), String(driver.trips), String(driver.earningsCents), String(driver.emptyMetres),
            String(driver.loadedMetres), String(format: "%.3f", driver.deadheadShare),
        ])
    }
}

extension DriverLedger.Driver {
    /// Counts the time in the current state up to `milliseconds`.
    fileprivate mutating func close(at milliseconds: Int64) {
        if let state, milliseconds > since { seconds[state, default: 0] += Double(milliseconds - since) / 1_000 }
        since = max(since, milliseconds)
    }
}
