import Foundation
import Testing

@testable import Coordinator

@Suite("Run directory: logs across restarts")
struct RunDirectoryTests {
    @Test("A restarted process's log is told from its earlier starts' (what an exit before readiness shows)")
    func latestStartOfTheLog() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let directory = RunDirectory(existing: path)
        try directory.write(
            "dispatch pid 1 ready: 81 road nodes\n\(Supervisor.restartMarker)1 of dispatch\nrestoring\n", to: "dispatch.log")
        #expect(directory.logText(of: "dispatch").contains(" ready"))
        #expect(directory.logText(of: "dispatch", latestStartOnly: true) == "1 of dispatch\nrestoring\n")
        try directory.write("dispatch pid 2 ready\n", to: "monitor.log")
        #expect(
            directory.logText(of: "monitor", latestStartOnly: true) == "dispatch pid 2 ready\n",
            "a log without restarts is all this start's")
    }

    @Test("The latest run is the one whose summary was written last; a run still going (no summary) is not one")
    func latestRun() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: parent) }
        #expect(RunDirectory.latest(in: parent) == nil)
        for (name, age) in [("b-older", 600.0), ("a-newer", 60.0), ("c-going", -1)] {
            let path = (parent as NSString).appendingPathComponent(name)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            guard age >= 0 else { continue }
            let summary = (path as NSString).appendingPathComponent("summary.json")
            try "{}".write(toFile: summary, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: summary)
        }
        #expect(RunDirectory.latest(in: parent)?.path.hasSuffix("/a-newer") == true)
    }
}
