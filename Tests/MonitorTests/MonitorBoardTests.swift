import Foundation
import Testing
import Wire

@testable import Monitor

@Suite("Monitor board: state from the bus, snapshots for late joiners, gaps reported")
struct MonitorBoardTests {
    var stamper = SequenceStamper(sender: "dispatch-bus")

    mutating func envelope(
        _ kind: DispatchEventKind, at seconds: Double, _ fill: (inout Wire.DispatchEvent) -> Void = { _ in }
    ) -> Envelope {
        var event = Wire.DispatchEvent.with { $0.kind = kind }
        fill(&event)
        return Envelope(.dispatchEvent(event), from: stamper.next(), simTimeMs: Int64(seconds * 1000))
    }

    @Test("A process's report of its own lag is bounded by how long the run has gone: 918.8 s after one minute is one minute")
    func lagBounded() {
        var board = MonitorBoard()
        var statuses = SequenceStamper(sender: "drivers-0-status")
        let status = { (lagMs: UInt32) in
            Envelope(
                .processStatus(
                    ProcessStatus.with {
                        $0.processID = "drivers-0"; $0.lagMs = lagMs
                    }), from: statuses.next(),
                simTimeMs: 60_000)
        }
        board.apply(status(2_500))
        #expect(board.maxLagMs["drivers-0"] == 2_500)
        board.apply(status(918_800))
        #expect(board.maxLagMs["drivers-0"] == 60_000)
        #expect(MonitorReport(board).processes["drivers-0"]?.maxLagSeconds == 60)
    }

    @Test("A request handed over between dispatch shards is counted once, where it ends, and stays open meanwhile")
    mutating func handedOver() {
        var board = MonitorBoard()
        var second = SequenceStamper(sender: "dispatch-1-bus")
        board.apply(
            envelope(.requestCreated, at: 2) {
                $0.requestID = "r-1"; $0.zone = "zone-1"
            })
        board.apply(
            envelope(.requestHandedOver, at: 65) {
                $0.requestID = "r-1"; $0.shard = 1
            })
        #expect(board.openRequests["r-1"] == .matching)
        let arrived = Wire.DispatchEvent.with {
            $0.kind = .requestCreated; $0.requestID = "r-1"; $0.zone = "zone-2"
        }
        board.apply(Envelope(.dispatchEvent(arrived), from: second.next(), simTimeMs: 66_000))
        #expect(board.totals[.requestCreated] == 1)
        #expect(board.minutes[0]?.requests == 0 && board.minutes[1]?.requests == 1)
        #expect(board.zoneRequests["zone-1"] == 0 && board.zoneRequests["zone-2"] == 1)
        board.apply(envelope(.tripCompleted, at: 300) { $0.requestID = "r-1" })
        #expect(board.openRequests.isEmpty)
    }

    @Test("Drivers and requests by state, per-minute counts, pickup waits, surge")
    mutating func states() {
        var board = MonitorBoard()
        board.apply(
            envelope(.driverStateChanged, at: 1) {
                $0.driverID = "d-1"; $0.driverState = .idle
            })
        board.apply(envelope(.requestCreated, at: 2) { $0.requestID = "r-1" })
        board.apply(envelope(.offerAccepted, at: 3) { $0.requestID = "r-1" })
        board.apply(
            envelope(.driverStateChanged, at: 3) {
                $0.driverID = "d-1"; $0.driverState = .enRoute
            })
        board.apply(
            envelope(.tripStarted, at: 60) {
                $0.requestID = "r-1"; $0.pickupWaitS = 58
            })
        board.apply(envelope(.requestCreated, at: 70) { $0.requestID = "r-2" })
        board.apply(envelope(.tripCompleted, at: 200) { $0.requestID = "r-1" })
        board.apply(
            envelope(.surgeUpdated, at: 200) {
                $0.zone = "zone-3"; $0.surgeMultiplier = 1.4
            })
        let report = MonitorReport(board)
        #expect(report.drivers["en_route"] == 1 && report.drivers["idle"] == 0)
        #expect(report.openRequests == 1, "r-2 is open, r-1 completed")
        #expect(report.totals["requests"] == 2 && report.totals["completed"] == 1)
        #expect(
            report.lastMinute["completed"] == 1 && report.lastMinute["requests"] == 0, "r-2 came 130 s before the latest event")
        #expect(report.pickupWaitP50 == 58 && report.maxSurge == 1.4 && report.simTimeSeconds == 200)
        let decoded = try? JSONDecoder().decode(MonitorReport.self, from: Data(report.json.utf8))
        #expect(decoded == report)
        let screen = report.dashboard().split(separator: "\n").map(String.init)
        #expect(screen.first == "ribcity monitor — simulated time 00:03:20")
        #expect(screen.contains("drivers 1 online (0 off)  ·idle 0  ooffered 0  >to pickup 1  █on trip 0"))
        #expect(screen.contains("  whole run                     2     1     1     0     0"), "\(screen)")
        #expect(!screen.contains { $0.contains("shard border") }, "one dispatch: no line for borders")

        // Sharded: r-2 handed to another shard, created there again — one request, one crossing.
        board.apply(
            envelope(.requestHandedOver, at: 201) {
                $0.requestID = "r-2"; $0.shard = 1
            })
        board.apply(envelope(.requestCreated, at: 202) { $0.requestID = "r-2" })
        let sharded = MonitorReport(board)
        #expect(sharded.totals["requests"] == 2 && sharded.totals["handed_over"] == 1 && sharded.openRequests == 1)
        #expect(
            sharded.dashboard().split(separator: "\n").contains("  across a shard border         1 whole run, 1 last minute"),
            "\(sharded.dashboard())")
    }

    @Test("The dashboard fits 80×24: clock time of day, progress and time left, run directory, sparklines, zones, notices")
    mutating func dashboardFits() {
        var board = MonitorBoard()
        for minute in 0..<40 {
            for index in 0..<(minute % 7 + 1) {
                board.apply(
                    envelope(.requestCreated, at: Double(minute * 60 + index)) {
                        $0.requestID = "r-\(minute)-\(index)"; $0.zone = "zone-\(index % 3)"
                    })
            }
        }
        var notices = SequenceStamper(sender: "coordinator-notices")
        for text in ["dispatch ready (pid 10)", "chaos: killing drivers-0", "drivers-0 restarted (pid 12)"] {
            board.apply(Envelope(.notice(Notice.with { $0.text = text }), from: notices.next()))
        }
        board.forgetOld()
        let context = DashboardContext(
            name: "downtown", clock: ClockTimeOfDay(startSecondOfDay: 17 * 3_600), durationSeconds: 3_600,
            runDirectory: "runs/downtown-20261124-101500", simulatedPerWallSecond: 60)
        let screen = MonitorReport(board).dashboard(context).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(screen.count <= 24 && screen.allSatisfy { $0.count <= 80 }, "\(screen.joined(separator: "\n"))")
        #expect(screen[0] == "ribcity monitor — downtown — 17:39:04  65 % of 01:00:00, about 21 s left")
        #expect(screen[1] == "run directory: runs/downtown-20261124-101500")
        #expect(screen.contains { $0.hasPrefix("  per minute, requests     ") && $0.hasSuffix("(max 7)") })
        #expect(screen.contains("busiest zones: zone-0 67 req 1.0×, zone-1 50 req 1.0×, zone-2 38 req 1.0×"))
        #expect(
            Array(screen.suffix(4)) == [
                "events:", "  dispatch ready (pid 10)", "  chaos: killing drivers-0", "  drivers-0 restarted (pid 12)",
            ])
    }

    @Test("A late joiner applies the snapshot, skips the events it already holds, and applies the rest")
    mutating func lateJoin() {
        var board = MonitorBoard()
        let early = envelope(.requestCreated, at: 1) { $0.requestID = "r-1" }
        let snapshotAt = early.sequence
        let later = envelope(.tripCompleted, at: 5) { $0.requestID = "r-1" }
        board.apply(
            snapshot: [
                Wire.DispatchEvent.with {
                    $0.kind = .requestCreated; $0.requestID = "r-1"; $0.tripState = .matching
                }
            ],
            sequenceAt: snapshotAt)
        board.apply(early)
        #expect(board.skippedBeforeSnapshot == 1 && board.openRequests.count == 1)
        board.apply(later)
        #expect(board.openRequests.isEmpty && board.sequences.totalMissed == 0)
    }

    @Test("A late joiner's whole-run totals are dispatch's own: it never shows more completed than requested")
    mutating func lateJoinTotals() {
        var board = MonitorBoard()
        for index in 1...3 { _ = envelope(.requestCreated, at: Double(index)) { $0.requestID = "r-\(index)" } }
        let seenLate = envelope(.tripCompleted, at: 4) { $0.requestID = "r-1" }
        let snapshotAt = seenLate.sequence
        let after = envelope(.tripCompleted, at: 5) { $0.requestID = "r-2" }
        // The joiner subscribed in time to see the first completion, before its snapshot came.
        board.apply(seenLate)
        board.apply(
            snapshot: [], sequenceAt: snapshotAt,
            totals: [
                EventCount.with {
                    $0.kind = .requestCreated; $0.count = 3
                },
                EventCount.with {
                    $0.kind = .tripCompleted; $0.count = 1
                },
            ])
        board.apply(after)
        let totals = MonitorReport(board).totals
        #expect(totals["requests"] == 3 && totals["completed"] == 2, "\(totals)")
    }

    @Test(
        "Events after the snapshot's sequence that came on the bus before the snapshot (another socket) are counted once and their state kept: the page showed matched 53 of summary.json's 54"
    )
    mutating func eventsBeforeTheirSnapshot() {
        var board = MonitorBoard()
        _ = envelope(.requestCreated, at: 1) { $0.requestID = "r-1" }
        _ = envelope(.driverStateChanged, at: 1) {
            $0.driverID = "d-1"; $0.driverState = .idle
        }
        let snapshotAt = stamper.lastSequence
        let accepted = envelope(.offerAccepted, at: 2) {
            $0.requestID = "r-1"; $0.driverID = "d-1"
        }
        let enRoute = envelope(.driverStateChanged, at: 2) {
            $0.driverID = "d-1"; $0.driverState = .enRoute
        }
        board.apply(accepted)
        board.apply(enRoute)
        board.apply(
            snapshot: [
                Wire.DispatchEvent.with {
                    $0.kind = .requestCreated; $0.requestID = "r-1"; $0.tripState = .matching
                },
                Wire.DispatchEvent.with {
                    $0.kind = .driverStateChanged; $0.driverID = "d-1"; $0.driverState = .idle
                },
            ],
            sequenceAt: snapshotAt,
            totals: [
                EventCount.with {
                    $0.kind = .requestCreated; $0.count = 1
                },
                EventCount.with {
                    $0.kind = .driverStateChanged; $0.count = 1
                },
            ])
        #expect(board.totals[.offerAccepted] == 1 && board.totals[.requestCreated] == 1)
        #expect(board.totals[.driverStateChanged] == 2)
        #expect(board.openRequests["r-1"] == .driverAssigned && board.drivers["d-1"] == .enRoute)
        let started = envelope(.tripStarted, at: 3) { $0.requestID = "r-1" }
        board.apply(started)
        #expect(board.sequences.totalMissed == 0 && board.sequences.duplicates.isEmpty)
        #expect(board.openRequests["r-1"] == .onTrip && board.totals[.tripStarted] == 1)
    }

    @Test("A snapshot without totals (a dispatch that sends none) brings the state up to date and counts nothing twice")
    mutating func snapshotWithoutTotals() {
        var board = MonitorBoard()
        let created = envelope(.requestCreated, at: 1) { $0.requestID = "r-1" }
        board.apply(created)
        let accepted = envelope(.offerAccepted, at: 2) { $0.requestID = "r-1" }
        board.apply(accepted)
        board.apply(
            snapshot: [
                Wire.DispatchEvent.with {
                    $0.kind = .requestCreated; $0.requestID = "r-1"; $0.tripState = .matching
                }
            ], sequenceAt: created.sequence)
        #expect(board.totals[.requestCreated] == 1 && board.totals[.offerAccepted] == 1)
        #expect(board.openRequests["r-1"] == .driverAssigned)
    }

    @Test(
        "Each dispatch shard's snapshot replaces that shard's share of the totals: what another shard told stays, and nothing is counted twice"
    )
    func shardSnapshotsReplaceTheirShare() {
        var board = MonitorBoard()
        var shard0 = SequenceStamper(sender: "dispatch-0-bus")
        var shard1 = SequenceStamper(sender: "dispatch-1-bus")
        let created = { (stamp: SenderStamp, request: String) in
            Envelope(
                .dispatchEvent(
                    Wire.DispatchEvent.with {
                        $0.kind = .requestCreated; $0.requestID = request
                    }), from: stamp, simTimeMs: 1_000)
        }
        let count = { (created: UInt64) in
            [
                EventCount.with {
                    $0.kind = .requestCreated; $0.count = created
                }
            ]
        }
        // Shard 1's two requests come on the bus before either snapshot; shard 0's snapshot
        // (first, not merging) counts one request, shard 1's (current to its first) one.
        let firstOfShard1 = shard1.next()
        board.apply(created(firstOfShard1, "r-b1"))
        board.apply(created(shard1.next(), "r-b2"))
        board.apply(snapshot: [], sequenceAt: shard0.next().sequence, totals: count(1), sender: "dispatch-0-bus")
        #expect(board.totals[.requestCreated] == 3)
        board.apply(
            snapshot: [], sequenceAt: firstOfShard1.sequence, totals: count(1), sender: "dispatch-1-bus", merging: true)
        #expect(board.totals[.requestCreated] == 3, "\(board.totals)")
    }

    @Test("The run's highest surge is reported with its zone and time, not the surge left at the end")
    mutating func peakSurge() {
        var board = MonitorBoard()
        let surge = { (zone: String, multiplier: Double, seconds: Double, board: inout MonitorBoard, me: inout Self) in
            board.apply(
                me.envelope(.surgeUpdated, at: seconds) {
                    $0.zone = zone; $0.surgeMultiplier = multiplier
                })
        }
        surge("z-3", 1.4, 100, &board, &self)
        surge("z-5", 2.4, 1_380, &board, &self)
        surge("z-5", 1.0, 1_500, &board, &self)
        let report = MonitorReport(board)
        #expect(report.maxSurge == 2.4 && report.maxSurgeZone == "z-5" && report.maxSurgeAtSeconds == 1_380)
        #expect(report.surgeNow == 1.4)
        #expect(report.peakSurgeWhere(clock: ClockTimeOfDay(startSecondOfDay: 17 * 3_600)) == " (z-5 at 17:23:00)")
        #expect(report.peakSurgeWhere(clock: nil) == " (z-5 at 00:23:00 simulated)")
        #expect(report.dashboard().contains("surge now 1.4×; the run's highest 2.4× (z-5 at 00:23:00 simulated)"))
    }

    @Test("A restarted process's counters are summed over its lives, not only its last life's")
    func livesSummed() {
        var board = MonitorBoard()
        var first = SequenceStamper(sender: "drivers-0-status"), second = SequenceStamper(sender: "drivers-0-status")
        let report = { (pid: Int32, messages: UInt64, cpu: Double, stamper: inout SequenceStamper) in
            Envelope(
                .processStatus(
                    ProcessStatus.with {
                        $0.processID = "drivers-0"; $0.pid = pid; $0.messagesIn = messages; $0.messagesOut = messages / 2
                        $0.cpuSeconds = cpu
                    }), from: stamper.next(), simTimeMs: 1_000)
        }
        board.apply(report(100, 40, 1.0, &first))
        board.apply(report(100, 50, 2.0, &first))
        board.apply(report(200, 10, 0.5, &second))
        let health = MonitorReport(board).processes["drivers-0"]
        #expect(health?.lives == 2 && health?.messagesIn == 60 && health?.messagesOut == 30 && health?.cpuSeconds == 2.5)
    }

    @Test("Dispatch's malformed, forbidden and rate-limited counts are its latest life's; a host has none")
    func dispatchChecks() {
        var board = MonitorBoard()
        var shard = SequenceStamper(sender: "dispatch-1-status"), host = SequenceStamper(sender: "riders-0-status")
        let dispatch = { (malformed: UInt32, forbidden: UInt32) in
            Envelope(
                .processStatus(
                    ProcessStatus.with {
                        $0.processID = "dispatch-1"; $0.pid = 7
                        $0.checks = DispatchChecks.with {
                            $0.malformed = malformed; $0.forbidden = forbidden; $0.rateLimited = 2
                        }
                    }), from: shard.next(), simTimeMs: 1_000)
        }
        board.apply(dispatch(3, 1))
        board.apply(dispatch(9, 4))
        board.apply(
            Envelope(
                .processStatus(
                    ProcessStatus.with {
                        $0.processID = "riders-0"; $0.pid = 8
                    }), from: host.next(), simTimeMs: 1_000))
        let processes = MonitorReport(board).processes
        #expect(processes["dispatch-1"]?.malformed == 9 && processes["dispatch-1"]?.forbidden == 4)
        #expect(processes["dispatch-1"]?.rateLimited == 2)
        #expect(processes["riders-0"]?.malformed == nil && processes["riders-0"]?.forbidden == nil)
    }

    @Test("Lost bus messages show as missed, not hidden")
    mutating func gaps() {
        var board = MonitorBoard()
        board.apply(envelope(.requestCreated, at: 1) { $0.requestID = "a" })
        _ = envelope(.requestCreated, at: 2)
        _ = envelope(.requestCreated, at: 3)
        board.apply(envelope(.requestCreated, at: 4) { $0.requestID = "d" })
        #expect(board.sequences.totalMissed == 2)
        #expect(MonitorReport(board).line.contains("missed 2"))
    }

    @Test("Events seen already (a restored dispatch publishes its last ones again) are not counted twice")
    mutating func duplicates() {
        var board = MonitorBoard()
        let first = envelope(.requestCreated, at: 1) { $0.requestID = "a" }
        let second = envelope(.tripCompleted, at: 2) { $0.requestID = "a" }
        for event in [first, second, second, envelope(.requestCreated, at: 3) { $0.requestID = "b" }] { board.apply(event) }
        #expect(board.totals[.requestCreated] == 2 && board.totals[.tripCompleted] == 1)
        #expect(board.openRequests.keys.sorted() == ["b"])
        #expect(board.sequences.duplicates["dispatch-bus"] == 1 && board.sequences.totalMissed == 0)
    }

    @Test("The coarse map counts online drivers where they were last seen, north up")
    mutating func coarseMap() {
        var board = MonitorBoard()
        func driver(_ id: String, _ state: Wire.DriverState, lat: Double, lon: Double) -> Envelope {
            envelope(.driverStateChanged, at: 1) {
                $0.driverID = id
                $0.driverState = state
                $0.location = LatLon.with {
                    $0.lat = lat; $0.lon = lon
                }
            }
        }
        board.apply(driver("a", .idle, lat: 40.72, lon: -74.01))
        board.apply(driver("b", .onTrip, lat: 40.72, lon: -74.01))
        board.apply(driver("c", .idle, lat: 40.70, lon: -73.99))
        board.apply(driver("d", .offline, lat: 40.71, lon: -74.00))
        let map = MonitorReport(board).map
        #expect(map.rows.count == 6 && map.rows.allSatisfy { $0.count == 56 })
        #expect(map.rows.first?.first == "2", "two drivers in the north-west corner")
        #expect(map.rows.last?.last == "1", "one in the south-east corner")
        #expect(map.rows.joined().filter { $0 != "·" }.count == 2, "the offline driver is not drawn")
        #expect(
            MonitorReport(board).dashboard().contains(
                "online drivers, north up (1–9 in a cell, # ten or more; a cell ≈ 31 × 445 m)"))
    }
}
