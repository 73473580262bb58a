import Foundation

/// The `ribcity-web` process under test: started with its output to a file, asked for the port
/// it serves on, stopped with SIGINT as the coordinator stops it.
final class WebProcess: Sendable {
    private let process: Process
    private let output: String

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    init(executable: String, arguments: [String], output: String) throws {
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Its address goes to standard error at once (standard output to a file is buffered).
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try process.run()
        self.process = process
        self.output = output
    }

    /// The port from its line `web: serving http://HOST:PORT/`, once printed.
    func port() async throws -> Int {
        for _ in 0..<600 {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("web: serving http://") }),
                let port = Int(line.split(separator: ":").last?.trimmingCharacters(in: CharacterSet(charactersIn: "/")) ?? "")
            {
                return port
            }
            guard process.isRunning else { throw Failed(description: "ribcity-web exited: \(text)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failed(description: "ribcity-web printed no address within 30 s")
    }

    /// User and system CPU seconds so far (`/proc/PID/stat`).
    func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
    }
}
