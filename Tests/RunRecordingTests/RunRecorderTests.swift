import Foundation
import Testing
import Wire

@testable import RunRecording

@Suite("Recording a run into SQLite")
struct RunRecorderTests {
    var stamper = SequenceStamper(sender: "dispatch-bus")

    mutating func event(
        _ kind: DispatchEventKind, _ request: String, at seconds: Double, _ fill: (inout Wire.DispatchEvent) -> Void = { _ in }
    ) -> Envelope {
        var event = Wire.DispatchEvent.with {
            $0.kind = kind
            $0.requestID = request
            $0.riderID = request
        }
        fill(&event)
        return Envelope(.dispatchEvent(event), from: stamper.next(), simTimeMs: Int64(seconds * 1000))
    }

    func status(_ stamper: inout SequenceStamper, leaks: UInt64, at seconds: Double) -> Envelope {
        Envelope(
            .processStatus(
                ProcessStatus.with {
                    $0.processID = "drivers-0"
                    $0.role = .drivers
                    $0.leaks = leaks
                }), from: stamper.next(), simTimeMs: Int64(seconds * 1000))
    }

    @Test("Events, trips, health reports and per-minute KPIs; repeats left out, restarted senders kept apart")
    mutating func recordsARun() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString.prefix(8)).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try RunRecorder(path: path)
        try await recorder.describe(["topology": "test", "speed": "60"])
        var ride = [
            event(.requestCreated, "r-1", at: 10) {
                $0.fareCents = 900; $0.surgeMultiplier = 1.2
            },
            event(.offerSent, "r-1", at: 11) { $0.driverID = "d-1" },
            event(.offerDeclined, "r-1", at: 12) { $0.driverID = "d-1" },
            event(.offerSent, "r-1", at: 13) { $0.driverID = "d-2" },
            event(.offerAccepted, "r-1", at: 14) { $0.driverID = "d-2" },
            event(.requestCreated, "r-2", at: 30),
            event(.tripStarted, "r-1", at: 70) {
                $0.driverID = "d-2"; $0.pickupWaitS = 60
            },
            event(.requestCancelled, "r-2", at: 80) {
                $0.cancelledBy = .rider; $0.reason = "waited too long"
            },
            event(.tripCompleted, "r-1", at: 130) {
                $0.driverID = "d-2"; $0.fareCents = 1_000
            },
        ]
        // A restored dispatch publishes its last events again: recorded once.
        ride += ride.suffix(3)
        var first = SequenceStamper(sender: "drivers-0-status")
        var restarted = SequenceStamper(sender: "drivers-0-status")
        let reports = [status(&first, leaks: 0, at: 5), status(&first, leaks: 0, at: 65), status(&restarted, leaks: 2, at: 125)]
        try await recorder.record(Array(ride.prefix(6)))
        try await recorder.record(Array(ride.dropFirst(6)) + reports)
        let (recorded, repeats) = (await recorder.recorded, await recorder.repeats)
        #expect(recorded == 12 && repeats == 3)

        let trips = try await recorder.query(
            "SELECT request_id, outcome, driver_id, offers, declines, pickup_wait_s, fare_cents, quoted_cents, "
                + "cancelled_by FROM trips ORDER BY request_id"
        )
        #expect(
            trips.map { $0.map(\.value) } == [
                ["r-1", "completed", "d-2", "2", "1", "60", "1000", "900", ""],
                ["r-2", "cancelled", "", "0", "0", "", "", "0", "rider"],
            ])
        let minutes = try await recorder.query(
            "SELECT minute, requests, completed, cancelled, mean_pickup_wait_s FROM minute_kpis")
        #expect(
            minutes.map { $0.map(\.value) } == [
                ["0", "2", "0", "0", ""], ["1", "0", "0", "1", "60.0"], ["2", "0", "1", "0", ""],
            ])
        let lives = try await recorder.query("SELECT COUNT(*) FROM process_status WHERE process_id = 'drivers-0'")
        #expect(lives.first?.first?.value == "3", "a restarted process's reports, numbered from 1 again, are kept")
        let mode = try await recorder.query("PRAGMA journal_mode")
        #expect(mode.first?.first?.value == "wal", "readers (sqlite3 during the run) must not make the recorder's writes fail")
        let facts = try await recorder.query("SELECT value FROM run WHERE key = 'topology'")
        #expect(facts.first?.first?.value == "test")
        #expect(RunReport.table(minutes).contains("mean_pickup_wait_s"))

        // The same recording imported again inserts nothing, and says so.
        let again = try RunRecorder(path: path)
        try await again.record(ride + reports)
        let (inserted, alreadyThere) = (await again.recorded, await again.alreadyThere)
        #expect(inserted == 0 && alreadyThere == 12)
        let count = try await again.query("SELECT (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM process_status)")
        #expect(count.first?.first?.value == "12")
    }

    @Test("A request handed across a shard border is one trip and one request of the minute its rider asked in")
    func handedOver() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString.prefix(8)).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try RunRecorder(path: path)
        var home = SequenceStamper(sender: "dispatch-0-bus")
        var owner = SequenceStamper(sender: "dispatch-1-bus")
        func event(_ kind: DispatchEventKind, at seconds: Double, _ stamper: inout SequenceStamper) -> Envelope {
            Envelope(
                .dispatchEvent(
                    Wire.DispatchEvent.with {
                        $0.kind = kind; $0.requestID = "r-1"; $0.riderID = "rider-1"
                        if kind == .tripCompleted { $0.fareCents = 1_000 }
                    }), from: stamper.next(), simTimeMs: Int64(seconds * 1000))
        }
        try await recorder.record([
            event(.requestCreated, at: 59, &home), event(.requestHandedOver, at: 60, &home),
            event(.requestCreated, at: 61, &owner), event(.tripCompleted, at: 200, &owner),
        ])
        let trips = try await recorder.query("SELECT request_id, requested_ms, outcome FROM trips")
        #expect(trips.map { $0.map(\.value) } == [["r-1", "59000", "completed"]])
        let minutes = try await recorder.query("SELECT minute, requests, handed_over, completed FROM minute_kpis")
        #expect(minutes.map { $0.map(\.value) } == [["0", "1", "0", "0"], ["1", "0", "1", "0"], ["3", "0", "0", "1"]])
    }

    @Test("Trips keep their product, dropoff, zones, route length and the driver's share")
    mutating func tripPlaces() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString.prefix(8)).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try RunRecorder(path: path)
        try await recorder.record([
            event(.requestCreated, "r-1", at: 10) {
                $0.product = .pool; $0.zone = "zone-3"; $0.dropoffZone = "zone-7"; $0.tripMetres = 2_400
                $0.dropoff = LatLon.with {
                    $0.lat = 40.71; $0.lon = -74.01
                }
            },
            event(.tripCompleted, "r-1", at: 300) {
                $0.fareCents = 1_200; $0.driverEarnsCents = 900; $0.zone = "zone-7"
            },
        ])
        let trip = try await recorder.query(
            "SELECT product, pickup_zone, dropoff_lat, dropoff_lon, dropoff_zone, trip_m, driver_earns_cents FROM trips")
        #expect(trip.map { $0.map(\.value) } == [["pool", "zone-3", "40.71", "-74.01", "zone-7", "2400", "900"]])
    }

    @Test("Every report query runs on a recorded database")
    func reportQueries() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString.prefix(8)).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try RunRecorder(path: path)
        var me = self
        try await recorder.record([me.event(.requestCreated, "r-1", at: 1), me.event(.requestRejected, "r-1", at: 2)])
        for (_, sql) in RunReport.queries {
            _ = try await recorder.query(sql)
        }
        let endings = try await recorder.query(RunReport.queries[2].sql)
        #expect(endings.isEmpty)
    }

    @Test("A file that is not a database is an error naming the file and SQLite's reason, without its result code")
    func notADatabase() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString.prefix(8)).sqlite")
            .path
        try "not a database, only text\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: RecordingError.self) { _ = try RunRecorder(path: path) }
        #expect(error?.description == "\(path): file is not a database")
    }
}
