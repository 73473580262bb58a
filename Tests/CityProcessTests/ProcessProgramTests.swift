import Foundation
import TestSupport
import Testing

// In the launch suite, which runs its cities one at a time.
extension LaunchTests {
    @Test(
        "Every process of a city starts through the program RIBCITY_PROCESS_PROGRAM names (a profiler's wrapper) with ribcity's own arguments, and a name that is no program is refused before anything starts"
    )
    func processProgram() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcity-wrapper-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = folder.appendingPathComponent("started.txt")
        let wrapper = folder.appendingPathComponent("wrapped")
        try """
        #!/bin/sh
        echo "$1 $3" >> \(started.path)
        exec \(ribcityBinary!) "$@"
        """.write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let run = try await LaunchedRun.launch(
            extra: ["--virtual", "--no-monitor"], environment: ["RIBCITY_PROCESS_PROGRAM": wrapper.path])
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.summary["outcome"] as? String == "completed", "\(run.output)")
        let roles = try String(contentsOf: started, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ")[0] }
        #expect(roles.sorted() == ["dispatch", "drivers", "drivers", "riders", "riders"], "\(roles)")

        let missing = folder.appendingPathComponent("not-there").path
        let refused = try await LaunchedRun.launch(
            extra: ["--virtual", "--no-monitor"], environment: ["RIBCITY_PROCESS_PROGRAM": missing])
        defer { try? FileManager.default.removeItem(at: refused.directory) }
        #expect(refused.status != 0, "\(refused.output)")
        #expect(refused.output.contains("RIBCITY_PROCESS_PROGRAM=\(missing): no executable program there"), "\(refused.output)")
    }
}
