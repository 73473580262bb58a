import Foundation

/// Starts the run's processes, knows which are running, and records how each exited.
///
/// Each process is `ribcity <arguments>` (this same executable), its standard output and error
/// going to its log in the run directory, or the monitor's to the terminal.
public actor Supervisor {
    /// A process that exited.
    public struct Exit: Sendable, Equatable {
        public let name: String
        public let pid: Int32
        public let status: Int32
        /// Killed by a signal (`status` is then the signal number).
        public let signalled: Bool

        public var description: String { signalled ? "killed by signal \(status)" : "exited with status \(status)" }
    }

    /// Starts, restarts and exits of one process.
    public struct Record: Sendable, Codable, Equatable {
        public var starts = 0
        public var pid: Int32 = 0
        public var exits: [String] = []
        public var restarts: Int { max(0, starts - 1) }
    }

    public private(set) var records: [String: Record] = [:]
    private let executable: URL
    private let directory: RunDirectory
    private var running: [String: Process] = [:]
    private var exitWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    public init(executable: URL, directory: RunDirectory) {
        self.executable = executable
        self.directory = directory
    }

    public func isRunning(_ name: String) -> Bool { running[name] != nil }

    public func pid(of name: String) -> Int32? { running[name]?.processIdentifier }

    /// What starts the line the supervisor writes into a process's log before restarting it.
    public static let restartMarker = "--- restart "

    /// Starts `ribcity <arguments>` as process `name`; `toTerminal` keeps the parent's output.
    @discardableResult
    public func start(_ name: String, executable: String? = nil, arguments: [String], toTerminal: Bool = false) throws -> Int32 {
        // Foundation starts each child in a process group of its own, so Ctrl-C in the terminal
        // reaches the coordinator alone, which then stops the processes in order.
        let process = Process()
        process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? self.executable
        process.arguments = arguments
        let log = try directory.log(for: name)
        var record = records[name] ?? Record()
        if record.starts > 0 { log.write(Data("\(Self.restartMarker)\(record.starts) of \(name)\n".utf8)) }
        if !toTerminal {
            process.standardOutput = log
            process.standardError = log
        } else {
            process.standardError = log
        }
        process.terminationHandler = { [weak self] finished in
            let exit = Exit(name: name, pid: finished.processIdentifier, status: finished.terminationStatus,
                            signalled: finished.terminationReason == .uncaughtSignal)
            Task { await self?.exited(exit) }
        }
        try process.run()
        try? log.close()
        running[name] = process
        record.starts += 1
        record.pid = process.processIdentifier
        records[name] = record
        return process.processIdentifier
    }

    /// Waits until the process's log says it is ready, or fails if it exits or takes too long.
    public func waitUntilReady(_ name: String, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        // Only this start's part of the log counts: an earlier start's ready line says nothing now.
        while !directory.logText(of: name, latestStartOnly: true).contains(" ready") {
            guard running[name] != nil else {
                throw LaunchError.exitedBeforeReady(name, log: String(directory.logText(of: name).suffix(2_000)))
            }
            guard ContinuousClock.now < deadline else { throw LaunchError.notReady(name, after: timeout) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Sends `signal` to a running process.
    public func signal(_ name: String, _ signal: Int32) {
        guard let process = running[name] else { return }
        kill(process.processIdentifier, signal)
    }

    /// Asks a process to stop (SIGTERM), kills it after `grace`, and waits until it has exited.
    public func stop(_ name: String, grace: Duration) async {
        guard running[name] != nil else { return }
        signal(name, SIGTERM)
        let killer = Task {
            try await Task.sleep(for: grace)
            self.signal(name, SIGKILL)
        }
        await withCheckedContinuation { continuation in
            if running[name] == nil { continuation.resume() } else { exitWaiters[name, default: []].append(continuation) }
        }
        killer.cancel()
    }

    private func exited(_ exit: Exit) {
        guard running[exit.name]?.processIdentifier == exit.pid else { return }
        running[exit.name] = nil
        records[exit.name]?.exits.append(exit.description)
        exitWaiters.removeValue(forKey: exit.name)?.forEach { $0.resume() }
    }
}

/// Why a run could not be launched.
public enum LaunchError: Error, CustomStringConvertible {
    case exitedBeforeReady(String, log: String)
    case notReady(String, after: Duration)

    public var description: String {
        switch self {
        case .exitedBeforeReady(let name, let log): "\(name) exited before it was ready; its log ends:\n\(log)"
        case .notReady(let name, let timeout): "\(name) was not ready after \(timeout)"
        }
    }
}
