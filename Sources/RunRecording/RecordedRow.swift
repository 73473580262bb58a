import GRDB
import Wire

/// One bus envelope on its way into the database: which life of its sender it came from
/// (a restarted process numbers from 1 again) and the envelope.
struct RecordedRow: Sendable {
    let generation: Int
    let envelope: Envelope

    /// Writes the envelope: a dispatch event into `events` (once: a repeat of a sender's
    /// sequence number is ignored) and into its trip's row; a health report into `process_status`.
    /// What inserting an envelope did.
    enum Insertion { case inserted, alreadyThere, notKept }

    /// Inserts the envelope's row: `alreadyThere` if the database had it (an import repeated),
    /// `notKept` for kinds the database does not keep (readiness, window reports).
    func insert(into db: Database) throws -> Insertion {
        switch envelope.body {
        case .dispatchEvent(let event)?:
            return try insert(event, into: db)
        case .processStatus(let status)?:
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO process_status (process_id, sim_time_ms, role, pid, messages_in, messages_out, malformed, apps,
                                                apps_finished, cpu_seconds, rss_bytes, leaks, lag_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                status.processID, envelope.simTimeMs, "\(status.role)", status.pid,
                Int64(status.messagesIn), Int64(status.messagesOut), Int64(status.malformed), status.apps,
                Int64(status.appsFinished), status.cpuSeconds, Int64(status.rssBytes), Int64(status.leaks), status.lagMs,
            ])
            return db.changesCount > 0 ? .inserted : .alreadyThere
        default:
            return .notKept
        }
    }

    private func insert(_ event: Wire.DispatchEvent, into db: Database) throws -> Insertion {
        func text(_ value: String) -> String? { value.isEmpty ? nil : value }
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO events (sender, generation, sequence, sim_time_ms, kind, request_id, rider_id,
                                              driver_id, trip_state, driver_state, lat, lon, fare_cents, surge,
                                              pickup_wait_s, cancelled_by, reason, zone, session_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            envelope.sender, generation, Int64(envelope.sequence), envelope.simTimeMs, "\(event.kind)",
            text(event.requestID), text(event.riderID), text(event.driverID),
            event.tripState == .unspecified ? nil : "\(event.tripState)",
            event.driverState == .unspecified ? nil : "\(event.driverState)",
            event.hasLocation ? event.location.lat : nil, event.hasLocation ? event.location.lon : nil,
            event.fareCents == 0 ? nil : event.fareCents, event.surgeMultiplier == 0 ? nil : event.surgeMultiplier,
            event.kind == .tripStarted ? Int64(event.pickupWaitS) : nil,
            event.cancelledBy == .unspecified ? nil : "\(event.cancelledBy)",
            text(event.reason), text(event.zone), text(event.sessionID),
        ])
        guard db.changesCount > 0 else { return .alreadyThere }
        guard !event.requestID.isEmpty else { return .inserted }
        let time = envelope.simTimeMs, request = event.requestID
        switch event.kind {
        case .requestCreated:
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO trips (request_id, rider_id, requested_ms, pickup_lat, pickup_lon, quoted_cents, surge,
                                                 product, pickup_zone, dropoff_lat, dropoff_lon, dropoff_zone, trip_m)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                request, text(event.riderID), time, event.hasLocation ? event.location.lat : nil,
                event.hasLocation ? event.location.lon : nil, event.fareCents, event.surgeMultiplier,
                event.product == .pool ? "pool" : event.product == .uberX ? "uberx" : nil, text(event.zone),
                event.hasDropoff ? event.dropoff.lat : nil, event.hasDropoff ? event.dropoff.lon : nil,
                text(event.dropoffZone), event.tripMetres == 0 ? nil : Int64(event.tripMetres),
            ])
        case .offerSent:
            try db.cachedStatement(sql: "UPDATE trips SET offers = offers + 1 WHERE request_id = ?").execute(arguments: [request])
        case .offerDeclined, .offerExpired:
            // Declined by the driver it was offered to, or taken back from the one who had it.
            try db.cachedStatement(
                sql: """
                    UPDATE trips SET declines = declines + 1,
                                     assigned_ms = CASE WHEN driver_id = ?1 THEN NULL ELSE assigned_ms END,
                                     driver_id = CASE WHEN driver_id = ?1 THEN NULL ELSE driver_id END
                    WHERE request_id = ?2
                    """
            ).execute(arguments: [event.driverID, request])
        case .offerAccepted:
            try db.cachedStatement(sql: "UPDATE trips SET driver_id = ?, assigned_ms = ? WHERE request_id = ?")
                .execute(arguments: [event.driverID, time, request])
        case .tripStarted:
            try db.cachedStatement(sql: "UPDATE trips SET picked_up_ms = ?, pickup_wait_s = ? WHERE request_id = ?")
                .execute(arguments: [time, Int64(event.pickupWaitS), request])
        case .tripCompleted, .requestCancelled, .requestRejected:
            let outcome = event.kind == .tripCompleted ? "completed" : event.kind == .requestCancelled ? "cancelled" : "rejected"
            let completed = event.kind == .tripCompleted
            try db.cachedStatement(
                sql: """
                    UPDATE trips SET ended_ms = ?, outcome = ?, fare_cents = ?, cancelled_by = ?, reason = ?,
                                     driver_earns_cents = ?, dropoff_zone = COALESCE(?, dropoff_zone)
                    WHERE request_id = ?
                    """
            ).execute(arguments: [
                time, outcome, completed ? event.fareCents : nil,
                event.cancelledBy == .unspecified ? nil : "\(event.cancelledBy)", text(event.reason),
                completed ? event.driverEarnsCents : nil, completed ? text(event.zone) : nil, request,
            ])
        default:
            break
        }
        return .inserted
    }
}
