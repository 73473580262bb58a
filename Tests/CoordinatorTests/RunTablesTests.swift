import Foundation
import Monitor
import Testing
import Wire

@testable import Coordinator

@Suite("A run's tables: trips.csv and drivers.csv from dispatch's events")
struct RunTablesTests {
    @Test("Events a restored dispatch publishes again count once in both tables")
    func repeatsCountOnce() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("ribcity-tables-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let topology = (parent as NSString).appendingPathComponent("t.yaml")
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try "name: t\n".write(toFile: topology, atomically: true, encoding: .utf8)
        let directory = try RunDirectory(parent: parent, name: "t", topologyFile: topology, resolved: "name: t\n")
        var tables = try RunTables(directory: directory, clock: ClockTimeOfDay(startSecondOfDay: 0))
        var stamper = SequenceStamper(sender: "dispatch-bus")
        func event(_ kind: DispatchEventKind, at seconds: Double, _ fill: (inout DispatchEvent) -> Void) -> Envelope {
            var event = DispatchEvent.with { $0.kind = kind }
            fill(&event)
            return Envelope(.dispatchEvent(event), from: stamper.next(), simTimeMs: Int64(seconds * 1_000))
        }
        let created = event(.requestCreated, at: 10) {
            $0.requestID = "r-1"; $0.riderID = "rider-1"
        }
        let online = event(.driverStateChanged, at: 10) {
            $0.driverID = "driver-1"; $0.driverState = .idle
        }
        let completed = event(.tripCompleted, at: 200) {
            $0.requestID = "r-1"; $0.driverID = "driver-1"; $0.fareCents = 900; $0.driverEarnsCents = 675
        }
        // The restored dispatch sends the completion again, with the same sequence number.
        tables.apply([created, online, completed])
        tables.apply([completed])
        tables.finish(openAs: "open at the end", at: 300_000)
        let trips = try #require(directory.table(RunTables.trips))
        #expect(trips.count == 1)
        #expect(trips.first?["outcome"] == "completed")
        let drivers = try #require(directory.table(RunTables.drivers))
        #expect(drivers.count == 1)
        #expect(drivers.first?["trips"] == "1" && drivers.first?["earnings_cents"] == "675")
    }
}
