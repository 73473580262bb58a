import Wire

extension DispatchDesk {
    /// Refuses (FORBIDDEN) a message from `session` that acts for a rider, driver, request or
    /// trip that is not its own, or asks for what its role may not. Called before anything is
    /// done, so a refused message changes nothing.
    func authorize(_ envelope: Envelope, session: DeskSession) throws(DeskFailure) {
        switch envelope.body {
        case .quoteRequest(let quote)?:
            if !quote.riderID.isEmpty { try check(rider: quote.riderID, for: session) }
        case .rideRequest(let ride)?:
            try check(rider: ride.riderID, for: session)
            if let id = requests[ride.requestID], let rider = riderOfRequest[id], rider != ride.riderID {
                throw forbidden("request \(ride.requestID) is another rider's")
            }
        case .cancelRide(let cancel)?:
            try check(request: cancel.requestID, for: session)
        case .rateTrip(let rating)?:
            guard let request = WireIDs.request(ofTrip: rating.tripID), requests[request] != nil else {
                throw DeskFailure(code: .unknownRequest, reason: "no trip \(rating.tripID)")
            }
            try check(request: request, for: session)
        case .shareEta(let share)?:
            try check(request: share.requestID, named: share.riderID, for: session)
        case .splitFareInvite(let invite)?:
            try check(request: invite.requestID, named: invite.riderID, for: session)
        case .splitAnswer(let answer)?:
            try check(rider: answer.riderID, for: session)
        case .driverOnline(let online)?:
            try check(driver: online.driverID, for: session)
        case .driverOffline(let message)?: try check(holding: message.driverID, for: session)
        case .locationUpdate(let update)?: try check(holding: update.driverID, for: session)
        case .locationReports(let reports)?:
            for update in reports.updates { try check(holding: update.driverID, for: session) }
        case .acceptOffer(let answer)?: try check(holding: answer.driverID, for: session)
        case .declineOffer(let answer)?: try check(holding: answer.driverID, for: session)
        case .legDone(let done)?: try check(holding: done.driverID, for: session)
        case .stop?, .snapshotRequest?:
            guard Self.overseers.contains(session.principal.role) else {
                throw forbidden("only the coordinator or a monitor may ask for \(envelope.bodyName)")
            }
        default:
            break
        }
    }

    /// The roles that may stop dispatch and ask for its whole state.
    static let overseers: Set<Role> = [.coordinator, .monitor]

    /// A session may act for a rider its process owns; for one the city's split does not cover,
    /// unless another principal's session holds it.
    private func check(rider name: String, for session: DeskSession) throws(DeskFailure) {
        try check(
            "rider", name, owner: settings.owners.owner(ofRider: name), holder: riderLines[name]?.session, for: session,
            heldElsewhere: "is another session's")
    }

    /// A request is acted on only for its own rider.
    private func check(request name: String, for session: DeskSession) throws(DeskFailure) {
        guard let id = requests[name], let rider = riderOfRequest[id] else { return }
        try check(rider: rider, for: session)
    }

    /// A rider's feature acts for the rider's own request, and says so.
    private func check(request name: String, named rider: String, for session: DeskSession) throws(DeskFailure) {
        try check(rider: rider, for: session)
        if let id = requests[name], let owner = riderOfRequest[id], owner != rider {
            throw forbidden("request \(name) is another rider's")
        }
        try check(request: name, for: session)
    }

    /// A driver comes online only on a session of the process that owns it (or, outside the
    /// split, one that no other principal's session holds).
    private func check(driver name: String, for session: DeskSession) throws(DeskFailure) {
        try check(
            "driver", name, owner: settings.owners.owner(ofDriver: name), holder: driverLines[name]?.session, for: session,
            heldElsewhere: "is online on another session")
    }

    /// The one rule for riders and drivers: the split's owner process, else whoever holds it.
    private func check(
        _ kind: String, _ name: String, owner: String?, holder: String?, for session: DeskSession, heldElsewhere: String
    ) throws(DeskFailure) {
        if let owner {
            guard owner == session.principal.process else { throw forbidden("\(kind) \(name) belongs to \(owner)") }
            return
        }
        if let holder, let other = sessions[holder], other.principal != session.principal {
            throw forbidden("\(kind) \(name) \(heldElsewhere)")
        }
    }

    /// Once online, a driver is acted for only through the session it came online on.
    private func check(holding name: String, for session: DeskSession) throws(DeskFailure) {
        // The line looked up once, and its session read in place: a copy of the line (its last
        // leg with it) for every location report was a hundredth of dispatch's time. A driver
        // with a line is a known one, so the name table is asked only when there is none.
        if let line = driverLines.index(forKey: name) {
            guard driverLines.values[line].session == session.id else {
                throw forbidden("driver \(name) is not online on this session")
            }
            return
        }
        guard let driver = drivers[name] else { return }
        if settings.shard != nil, engine.state(of: driver) == .offline, let node = engine.position(of: driver) {
            // Handed over to the shard where it stands: a message on its way meanwhile goes there.
            try requireOwn(node, "driver")
        }
        throw forbidden("driver \(name) is not online on this session")
    }

    func forbidden(_ reason: String) -> DeskFailure { DeskFailure(code: .forbidden, reason: reason) }
}
