import Foundation
import TestSupport
import Testing

/// `ribcity` run as a user runs it: arguments in, its words and exit status out.
struct CommandRun {
    let output: String
    let status: Int32

    /// The repository's `Topologies/` directory, with its data.
    static let topologies = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Topologies")

    static func ribcity(_ arguments: [String]) async throws -> CommandRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ribcityBinary!)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Read on a thread of its own: never block one of the threads that run every suite's tasks.
        let output = try await within(120, "ribcity \(arguments.first ?? "")") {
            await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
                Thread {
                    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    done.resume(returning: text)
                }.start()
            }
        }
        return CommandRun(output: output, status: process.terminationStatus)
    }
}

@Suite("The command line says what it does with what it is given")
struct CommandLineTests {
    @Test("simulate --topology with --strategy, --drivers and --duration applies them, and says so")
    func topologyOverrides() async throws {
        let run = try await CommandRun.ribcity([
            "simulate", "--topology", CommandRun.topologies.appendingPathComponent("grid-sumo.yaml").path, "--strategy",
            "batched", "--interval", "30", "--drivers", "20", "--duration", "300",
        ])
        #expect(run.status == 0, "\(run.output)")
        #expect(
            run.output.contains(
                "with matching batched every 30 s, 20 drivers, 300 s of requests from the command line"), "\(run.output)")
        #expect(run.output.contains("batched every 30 s, seed 1: 20 drivers, "), "\(run.output)")
    }

    @Test("The SUMO reference run refuses options it has no use for, instead of ignoring them")
    func referenceRefusesDrivers() async throws {
        let run = try await CommandRun.ribcity(["simulate", "--drivers", "10"])
        #expect(run.status == 64)
        #expect(
            run.output.hasPrefix(
                "Error: the SUMO reference run has its own 200 taxis over one hour: --drivers, --duration and --start-hour need --city or --topology"
            ), "\(run.output)")
    }

    @Test("A replay that leaves most rides out of the simulated window says how many, why, and how to take them in")
    func replayLeftOut() async throws {
        let data = CommandRun.topologies.appendingPathComponent("data")
        let run = try await CommandRun.ribcity([
            "simulate", "--city", data.appendingPathComponent("manhattan-south-roads.osm.pbf").path, "--replay",
            data.appendingPathComponent("nyc-yellow-2016-01-sample.csv").path, "--drivers", "5", "--duration", "600",
        ])
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        let leftOut = try #require(lines.first { $0.hasPrefix("rides left out: ") }, "\(run.output)")
        #expect(
            leftOut
                == "rides left out: 9840 of 9841 (9769 outside the simulated window, 65 pickup outside the map, 6 dropoff outside the map)"
        )
        #expect(
            lines.contains(
                "warning: 99.9 % of the rides were left out, most of them outside the simulated window (08:00 for 600 s): "
                    + "to take them in, lengthen it (--duration, or `duration` in the topology) or move it to their hours "
                    + "(--start-hour, or `start_time`)"), "\(run.output)")
    }
}
