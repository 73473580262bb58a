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
        try await run(ribcityBinary!, arguments)
    }

    /// Runs `executable` with `arguments`, standard output and error together.
    static func run(_ executable: String, _ arguments: [String]) async throws -> CommandRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = ChildProcess.pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try ChildProcess.run(process)
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

    @Test("A host handed a demand file that is not one, or not there, says which file and why, and starts nothing")
    func badPlacedDemand() async throws {
        let topology = CommandRun.topologies.appendingPathComponent("grid-sumo.yaml").path
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "garbage-\(UInt32.random(in: 0...UInt32.max)).pb")
        try Data([0xFF, 0xFF, 0xFF]).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        let run = try await CommandRun.ribcity(["riders", "--topology", topology, "--demand", garbage.path])
        #expect(run.status == 65, "\(run.output)")
        #expect(run.output.contains("--demand \(garbage.path): not a placed demand"), "\(run.output)")
        let missing = try await CommandRun.ribcity(["drivers", "--topology", topology, "--demand", garbage.path + ".gone"])
        #expect(missing.status == 65, "\(missing.output)")
        #expect(missing.output.contains("--demand \(garbage.path).gone: cannot read it"), "\(missing.output)")
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

    @Test("A mistyped command gets a suggestion, an unknown one the list's whereabouts; both exit 64")
    func mistypedCommand() async throws {
        let typo = try await CommandRun.ribcity(["lanch", "Topologies/downtown.yaml"])
        #expect(typo.status == 64)
        #expect(
            typo.output
                == "Error: 'lanch' is not a ribcity command. Did you mean 'launch'?\n  See 'ribcity --help' for the commands.\n")
        let unknown = try await CommandRun.ribcity(["frobnicate"])
        #expect(
            unknown.status == 64
                && unknown.output == "Error: 'frobnicate' is not a ribcity command.\n  See 'ribcity --help' for the commands.\n")
    }

    @Test("ribcity --version says the build, the protocol it speaks and the allocator it runs on")
    func version() async throws {
        let run = try await CommandRun.ribcity(["--version"])
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(run.status == 0 && lines.first == "ribcity 0.9.0 (wire protocol 1)", "\(run.output)")
        // mimalloc, linked into the executable; under ThreadSanitizer (this test process is built
        // as ribcity is) the sanitizer's allocator, linked into the executable itself, comes first.
        let sanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
        let allocator = sanitized ? "ribcity" : "libmimalloc.so.2"
        #expect(lines.last == "memory allocator: \(allocator)", "\(run.output)")
    }

    @Test("A bad topology file is bad input: its file, line and reason, exit 65, and no usage text after it")
    func badInputIsNotUsage() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString.prefix(6)).yaml")
        try "name: x\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // The topology is given the same way to every command: first, or as --topology.
        for arguments in [["launch", file.path], ["launch", "--topology", file.path], ["dispatch", file.path]] {
            let run = try await CommandRun.ribcity(arguments)
            #expect(run.status == 65, "\(arguments)")
            #expect(run.output == "Error: \(file.lastPathComponent):1: city: is required (osm: FILE or grid: {…})\n")
        }
        let none = try await CommandRun.ribcity(["monitor"])
        #expect(
            none.status == 64
                && none.output.hasPrefix("Error: Missing the topology: give it first (TOPOLOGY) or as --topology FILE."))
    }

    @Test("Every command's --help shows examples")
    func helpHasExamples() async throws {
        for command in [
            "launch", "stress", "report", "compare", "simulate", "overload", "monitor", "city", "demand", "topology", "dispatch",
            "drivers", "riders", "bus", "demo", "bench",
        ] {
            let run = try await CommandRun.ribcity([command, "--help"])
            #expect(run.status == 0 && run.output.contains("Examples:\n  "), "\(command): \(run.output)")
        }
        for command in ["ribs", "transport", "apps", "city", "dispatch"] {
            let run = try await CommandRun.ribcity(["bench", command, "--help"])
            #expect(run.status == 0 && run.output.contains("Examples:\n  "), "bench \(command): \(run.output)")
        }
    }

    @Test("A monitor with nothing to watch says so after a few seconds, and prints no zeros")
    func monitorWithNothingToWatch() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("quiet-\(UUID().uuidString.prefix(6)).yaml")
        try """
        name: quiet-\(UUID().uuidString.prefix(6).lowercased())
        city: { grid: { width_m: 1000, height_m: 1000, block_m: 250, speed_kmh: 36 } }
        drivers: { per_process: 1 }
        riders: { demand: { synthetic: { peak_per_hour: 10 } } }
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await CommandRun.ribcity(["monitor", file.path, "--wall-limit", "4.5", "--refresh", "1"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("monitor: nothing to watch after 3 s — no snapshot from dispatch at ipc://"), "\(run.output)")
        #expect(!run.output.contains("t=00:00:00"), "\(run.output)")
    }
}
