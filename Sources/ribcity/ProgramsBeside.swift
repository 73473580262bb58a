import ArgumentParser
import Foundation

/// This `ribcity` executable.
func ribcityProgram() -> URL {
    URL(
        fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
}

/// The program the coordinator starts the city's processes as: this executable, or the one
/// `RIBCITY_PROCESS_PROGRAM` names — a wrapper that runs `ribcity` under a profiler, as
/// `Tools/count-city` does with callgrind (it is given the arguments `ribcity` would be).
func processProgram(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
    guard let chosen = environment[processProgramVariable], !chosen.isEmpty else { return ribcityProgram() }
    guard FileManager.default.isExecutableFile(atPath: chosen) else {
        throw ValidationError("\(processProgramVariable)=\(chosen): no executable program there")
    }
    return URL(fileURLWithPath: chosen)
}

/// The environment variable that names another program for the city's processes.
let processProgramVariable = "RIBCITY_PROCESS_PROGRAM"

/// The path of `name`, a program built beside this `ribcity` (`ribcity-web`, `ribcity-recorder`).
func programBesideRibcity(_ name: String) -> String {
    ribcityProgram().deletingLastPathComponent().appendingPathComponent(name).path
}

/// `ribcity-web`, or a clear error when it was not built.
func webMonitorProgram() throws -> String {
    let program = programBesideRibcity("ribcity-web")
    guard FileManager.default.isExecutableFile(atPath: program) else {
        throw ValidationError("--web: ribcity-web is not built beside ribcity (swift build --product ribcity-web)")
    }
    return program
}

/// A `ribcity-web` started beside `ribcity monitor`: its address goes to standard error, and it
/// stops (SIGINT, as the coordinator stops it) when the monitor does.
final class WebMonitorProcess: Sendable {
    private let process: Process

    init(program: String, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        self.process = process
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
    }
}
