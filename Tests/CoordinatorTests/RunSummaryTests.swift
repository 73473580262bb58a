import Foundation
import Monitor
import Testing
import Wire

@testable import Coordinator

@Suite("Run summary: the numbers a run reports about itself")
struct RunSummaryTests {
    /// A board that saw `created` requests, `completed` of them completed, and health reports.
    private func board(created: Int, completed: Int, statuses: [(process: String, lagMs: UInt32)] = []) -> MonitorBoard {
        var board = MonitorBoard()
        var events = SequenceStamper(sender: "dispatch-bus")
        let script =
            (0..<created).map { (DispatchEventKind.requestCreated, $0, Int64(1_000)) }
            + (0..<completed).map { (DispatchEventKind.tripCompleted, $0, Int64(60_000)) }
        for (kind, index, ms) in script {
            let event = DispatchEvent.with {
                $0.kind = kind
                $0.requestID = "r-\(index)"
            }
            board.apply(Envelope(.dispatchEvent(event), from: events.next(), simTimeMs: ms))
        }
        for status in statuses {
            var stamper = SequenceStamper(sender: "\(status.process)-status")
            board.apply(
                Envelope(
                    .processStatus(
                        ProcessStatus.with {
                            $0.processID = status.process; $0.lagMs = status.lagMs
                        }), from: stamper.next(),
                    simTimeMs: 600_000))
        }
        return board
    }

    @Test(
        "Ctrl-C: the open requests are counted as ended by the shutdown, not as cancelled, and the run says it was interrupted (exit 130)"
    )
    func interrupted() {
        // At the interruption 10 requests were made and 6 completed; stopping the riders then
        // cancelled the other 4.
        let atInterruption = MonitorReport(board(created: 10, completed: 6))
        var after = board(created: 10, completed: 6)
        var events = SequenceStamper(sender: "dispatch-bus", startingAfter: 16)
        for index in 6..<10 {
            after.apply(
                Envelope(
                    .dispatchEvent(
                        DispatchEvent.with {
                            $0.kind = .requestCancelled; $0.requestID = "r-\(index)"
                        }), from: events.next(), simTimeMs: 61_000))
        }
        var summary = RunSummary(
            topology: "t", outcome: .stopped, wallSeconds: 3, speed: 60, kpis: MonitorReport(after), processes: [:],
            poolCapacity: 1, atInterruption: atInterruption)
        summary.startSecondOfDay = 17 * 3_600
        #expect(summary.endedByShutdown == 4 && summary.requests == 10 && summary.ended == 6)
        #expect(!summary.allRequestsAccounted)
        let lines = summary.text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "run t: interrupted after 3.0 s wall at 60.0× (simulated 61 s, 17:00:00 to 17:01:01)")
        #expect(
            lines[1]
                == "requests 10: completed 6, cancelled 0, rejected 0, 4 still open when the run was interrupted (ended by the shutdown)"
        )
        #expect(summary.outcome.exitStatus == 130 && RunOutcome.completed.exitStatus == 0)
    }

    @Test("A wall-clock run whose processes fell behind says its KPIs depend on the machine, and who fell behind")
    func lagWarning() {
        let lagging = RunSummary(
            topology: "t", outcome: .completed, wallSeconds: 3, speed: 60,
            kpis: MonitorReport(board(created: 1, completed: 1, statuses: [("dispatch", 300), ("riders-0", 8_200)])),
            processes: [:], poolCapacity: 1)
        #expect(lagging.kpisDependOnMachine)
        #expect(lagging.text.contains("worst lag behind the clock 8.20 s simulated (reported by riders-0)"))
        #expect(
            lagging.text.contains(
                "warning: riders-0 fell 8.2 s (simulated) behind the clock: these KPIs depend on this machine and on what else ran on it"
            ))
        let keepingUp = RunSummary(
            topology: "t", outcome: .completed, wallSeconds: 3, speed: 60,
            kpis: MonitorReport(board(created: 1, completed: 1, statuses: [("dispatch", 300)])), processes: [:], poolCapacity: 1)
        #expect(!keepingUp.kpisDependOnMachine && !keepingUp.text.contains("warning"))
    }

    @Test("compare: two runs' KPIs side by side, differences in points for shares, cautions when they are not comparable")
    func comparison() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("compare-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: parent) }
        func run(_ name: String, topology: String, created: Int, completed: Int, fares: [Int]) throws -> RunDirectory {
            let path = (parent as NSString).appendingPathComponent(name)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let directory = RunDirectory(existing: path)
            let summary = RunSummary(
                topology: topology, outcome: .completed, wallSeconds: 10, speed: 60,
                kpis: MonitorReport(board(created: created, completed: completed)), processes: [:], poolCapacity: 1)
            try directory.write(summary.json, to: "summary.json")
            var trips = TripLedger.header
            for (index, fare) in fares.enumerated() {
                var trip = TripLedger.Trip(requestID: "r-\(index)")
                trip.outcome = "completed"
                trip.fareCents = Int64(fare)
                trip.tripMetres = 2_000
                trip.reason = "a reason, with a comma"
                trips += TripLedger(clock: ClockTimeOfDay(startSecondOfDay: 0)).csvLine(trip)
            }
            try directory.write(trips, to: "trips.csv")
            return directory
        }
        let a = try run("a", topology: "downtown", created: 10, completed: 8, fares: [1_000, 1_000])
        let b = try run("b", topology: "downtown", created: 10, completed: 9, fares: [1_500, 1_500])
        let comparison = try RunComparison(a, b)
        let share = try #require(comparison.rows.first { $0.name == "completed share" })
        #expect(share.a == 0.8 && share.b == 0.9 && share.relative == nil)
        let paid = try #require(comparison.rows.first { $0.name == "riders paid" })
        #expect(paid.a == 20 && paid.b == 30 && paid.relative == 0.5)
        #expect(comparison.rows.first { $0.name == "mean trip" }?.b == 2)
        #expect(comparison.cautions.isEmpty)
        // Each line with its columns' padding squeezed to one space.
        let lines = comparison.text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("completed share (%) 80.0 90.0 +10.0 pt –"), "\(lines)")
        #expect(lines.contains("riders paid ($) 20 30 +10 +50.0 %"), "\(lines)")

        let other = try run("c", topology: "metro", created: 10, completed: 9, fares: [])
        #expect(try RunComparison(a, other).cautions == ["the runs are of different topologies (downtown, metro)"])
        #expect(throws: RunComparisonError.self) { try RunComparison(a, RunDirectory(existing: parent + "/missing")) }
    }

    @Test("report --html: one page with the summary's KPIs, three charts and the zones, needing no network")
    func htmlReport() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("html-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let directory = RunDirectory(existing: path)
        let summary = RunSummary(
            topology: "downtown", outcome: .completed, wallSeconds: 10, speed: 60,
            kpis: MonitorReport(board(created: 3, completed: 2)), processes: [:], poolCapacity: 1)
        try directory.write(summary.json, to: "summary.json")
        try directory.write(
            TripLedger.header
                + "r-0,r-0,uberx,completed,,,17:00:10,17:00:11,1,17:00:12,17:01:40,17:05:00,17:05:00,,,zone-1,,,zone-2,90,200,1500,900,675,1.2,driver-1,\n"
                + "r-1,r-1,pool,completed,,,17:00:30,17:00:31,1,17:00:32,17:02:00,17:06:00,17:06:00,,,zone-1,,,zone-3,80,240,1800,700,525,1.0,driver-2,\n"
                + "r-2,r-2,uberx,cancelled,\"waited, then left\",rider,17:01:00,,0,,,,17:09:00,,,zone-4,,,,,,,0,0,1.0,,\n",
            to: "trips.csv")
        try directory.write(
            DriverLedger.header
                + "driver-1,600,300,0,90,210,1,675,500,1500,0.250\ndriver-2,600,300,0,90,210,1,525,500,1800,0.217\n",
            to: "drivers.csv")
        let html = try HTMLReport(directory).html
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<tr><th>requests</th><td>3</td></tr>") && html.contains("<tr><th>completed</th><td>2</td></tr>"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == 3)
        #expect(html.contains("<tr><td>zone-1</td><td class=\"n\">2</td><td class=\"n\">100 %</td><td class=\"n\">85 s</td>"))
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("href="), "self-contained")
    }

    @Test("The coordinator's own CPU and memory are in the summary beside the city's processes, and in its text")
    func coordinatorUsage() throws {
        var summary = RunSummary(
            topology: "t", outcome: .completed, wallSeconds: 3, speed: 60, kpis: MonitorReport(board(created: 2, completed: 2)),
            processes: [:], poolCapacity: 1)
        summary.coordinator = CoordinatorUsage(cpuSeconds: 8.26, peakResidentMB: 95.4)
        #expect(
            summary.text.contains("  coordinator (topology, bus, recording, tables): 8.3 s CPU, 95 MB at most"), "\(summary.text)"
        )
        let decoded = try JSONDecoder().decode(RunSummary.self, from: Data(summary.json.utf8))
        #expect(decoded.coordinator == summary.coordinator)
        // This process's own figures are real ones: it has used CPU, and its peak remembers 64 MiB
        // that were resident a moment ago and are given back (an allocation that size is its own
        // mapping, so freeing it lowers the resident count at once).
        let block = 64 << 20
        let memory = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 4_096)
        memset(memory, 1, block)
        let held = ProcessUsage.current().residentBytes
        memory.deallocate()
        let after = ProcessUsage.current().residentBytes
        let now = CoordinatorUsage.current()
        let reading = ProcessUsage.current()
        #expect(reading.peakResidentBytes >= reading.residentBytes, "a peak below what is held: \(reading)")
        #expect(held >= after + UInt64(block) / 2, "the block was resident, then given back: \(held) then \(after) bytes")
        // The kernel's two counts may differ by a few pages; a megabyte covers it.
        #expect(
            now.cpuSeconds > 0 && now.peakResidentMB * 1_048_576 + 1_048_576 >= Double(held),
            "\(now), \(held) bytes resident while the block was held")
    }
}
