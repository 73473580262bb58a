import ArgumentParser
import Foundation

/// This `ribcity` executable.
func ribcityProgram() -> URL {
    URL(
        fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
}

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
