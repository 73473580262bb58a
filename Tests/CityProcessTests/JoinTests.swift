import Foundation
import TestSupport
import Testing

/// Joining a run from "another host" on this machine: the hosts' addresses are loopback ones.
@Suite("Joining a run: clear failures, and a joined process that leaves a run gone silent", .serialized)
struct JoinTests {
    private func topology(in directory: URL, port: Int, curve: Bool = false) throws -> URL {
        let file = directory.appendingPathComponent(curve ? "secured.yaml" : "city.yaml")
        try """
        name: join-\(directory.lastPathComponent)
        city: { grid: { width_m: 1500, height_m: 1500, block_m: 250, speed_kmh: 36 } }
        clock: { speed: 20, duration: 30m }
        drivers: { processes: 1, per_process: 4, host: fleet }
        riders: { processes: 1, demand: { synthetic: { peak_per_hour: 60 } } }
        endpoints: { transport: tcp, base_port: \(port) }
        security: { curve: \(curve ? "on" : "off") }
        hosts: [{ name: hub, address: 127.0.0.1 }, { name: fleet, address: 127.0.0.2 }]
        """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private func run(_ arguments: [String], log: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ribcityBinary!)
        process.arguments = arguments
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try ChildProcess.run(process)
        return process
    }

    private func exit(of process: Process) async -> Int32 {
        await withCheckedContinuation { done in
            Thread {
                process.waitUntilExit()
                done.resume(returning: process.terminationStatus)
            }.start()
        }
    }

    @Test(
        "No coordinator: the join gives up after its timeout, naming the address (exit 1); without keys over CURVE it says which to set"
    )
    func noCoordinator() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcity-join-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = try topology(in: directory, port: 7_930)
        let alone = try await CommandRun.ribcity([
            "drivers", "--topology", plain.path, "--process", "0", "--join", "tcp://127.0.0.1:7932", "--join-timeout", "1",
        ])
        #expect(alone.status == 1)
        #expect(
            alone.output.contains("Error: no coordinator accepted drivers-0 at tcp://127.0.0.1:7932 within 1.0 seconds"),
            "\(alone.output)")
        let secured = try topology(in: directory, port: 7_930, curve: true)
        let keyless = try await CommandRun.ribcity([
            "drivers", "--topology", secured.path, "--process", "0", "--join", "tcp://127.0.0.1:7932",
        ])
        #expect(keyless.status == 64 && keyless.output.contains("talks over CURVE: set RIBCITY_KEYS"), "\(keyless.output)")
        let badAddress = try await CommandRun.ribcity(["drivers", "--topology", plain.path, "--join", "10.0.0.1:7932"])
        #expect(badAddress.status == 64 && badAddress.output.contains("expected tcp://HOST:PORT"), "\(badAddress.output)")
    }

    @Test("A joined process whose coordinator dies without a word leaves the run after --run-silence, as a failure (exit 1)")
    func coordinatorGone() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcity-join-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try topology(in: directory, port: 7_940)
        let launchLog = directory.appendingPathComponent("launch.out")
        let launch = try run(
            ["launch", file.path, "--no-monitor", "--runs", directory.appendingPathComponent("runs").path, "--wall-limit", "60"],
            log: launchLog)
        let joinerLog = directory.appendingPathComponent("drivers-0.out")
        let joiner = try run(
            ["drivers", "--topology", file.path, "--process", "0", "--join", "tcp://127.0.0.1:7942", "--run-silence", "3"],
            log: joinerLog)
        @Sendable func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        try await within(60, "drivers-0 joined and the city is up") {
            while !text(launchLog).contains("riders-0 ready") { try await Task.sleep(for: .milliseconds(100)) }
        }
        // The coordinator dies at once, and its dispatch with it: the run goes silent.
        let dispatchPID = text(launchLog).split(separator: "\n").first { $0.contains("dispatch ready (pid ") }
            .flatMap { Int32($0.split(separator: "pid ").last?.dropLast() ?? "") }
        kill(launch.processIdentifier, SIGKILL)
        if let dispatchPID { kill(dispatchPID, SIGKILL) }
        let status = try await within(30, "drivers-0 left") { await exit(of: joiner) }
        #expect(status == 1, "\(text(joinerLog))")
        #expect(text(joinerLog).contains("nothing from the run at tcp://127.0.0.1:7942 for 3.0 seconds"), "\(text(joinerLog))")
        #expect(text(joinerLog).contains("Error: drivers-0 left a run that went silent"), "\(text(joinerLog))")
        // What the dead coordinator had started on its own host goes too.
        for line in text(launchLog).split(separator: "\n") where line.contains("ready (pid ") {
            if let pid = Int32(line.split(separator: "pid ").last?.dropLast() ?? "") { kill(pid, SIGKILL) }
        }
    }
}
