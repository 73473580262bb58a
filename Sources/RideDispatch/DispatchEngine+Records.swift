extension DispatchEngine {
    /// The one way the engine changes a driver's record, in place. A driver that the engine's own
    /// books name always has a record: a missing one is a bug, and stops the process.
    @discardableResult
    func updateDriver<Result>(_ id: DriverID, _ change: (inout DriverRecord) -> Result) -> Result {
        guard drivers[id] != nil else { preconditionFailure("dispatch's books name \(id), but it has no record of it") }
        defer { refreshAvailability(of: id) }
        return change(&drivers[id]!)
    }

    /// Puts `id` where matching looks for it: on the grid if available and standing, among the
    /// moving if available and driving, nowhere otherwise.
    func refreshAvailability(of id: DriverID) {
        forgetWhereDriversAre()
        let record = drivers[id]
        if let record, record.hasOpenPlan { planned.insert(id) } else { planned.remove(id) }
        guard let record, record.isAvailable else {
            standingAvailable.remove(id)
            movingAvailable.remove(id)
            return
        }
        if record.leg == nil {
            movingAvailable.remove(id)
            standingAvailable.place(id, node: record.node, at: nodeXY[record.node])
        } else {
            standingAvailable.remove(id)
            movingAvailable.insert(id)
        }
    }

    /// ``planned`` by a scan of every driver record: what a restore starts from, and what the
    /// index must agree with (checked in debug builds).
    var scannedPlanned: Set<DriverID> { Set(drivers.values.lazy.filter(\.hasOpenPlan).map(\.id)) }

    /// Drops what was worked out from the drivers' records for the instant (``movingPlaces``,
    /// ``lastPickupEstimate``): a record changed.
    func forgetWhereDriversAre() {
        movingPlaces = nil
        lastPickupEstimate = nil
    }

    /// The one way the engine changes a request's record, in place (see ``updateDriver(_:_:)``).
    @discardableResult
    func updateRequest<Result>(_ id: RequestID, _ change: (inout RequestRecord) -> Result) -> Result {
        guard requests[id] != nil else { preconditionFailure("dispatch's books name \(id), but it has no record of it") }
        return change(&requests[id]!)
    }

    /// The record of a driver the engine's own books name.
    func driverRecord(_ id: DriverID) -> DriverRecord {
        guard let record = drivers[id] else { preconditionFailure("dispatch's books name \(id), but it has no record of it") }
        return record
    }

    /// The record of a request the engine's own books name.
    func requestRecord(_ id: RequestID) -> RequestRecord {
        guard let record = requests[id] else { preconditionFailure("dispatch's books name \(id), but it has no record of it") }
        return record
    }
}
