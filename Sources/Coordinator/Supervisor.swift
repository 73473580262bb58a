import Foundation

/// Starts the run's processes, knows which are running, and records how each exited.
///
/// Each process is `ribcity <arguments>` (this same executable), its standard output and error
/// going to its log in the run directory, or the monitor's to the terminal.
public actor Supervisor {
    /// A process that exited.
    public struct Exit: Sendable, Equatable, Codable, CustomStringConvertible {
        public let name: String
        public let pid: Int32
        public let status: Int32
        /// Killed by a signal (`status` is then the signal number).
        public let signalled: Bool

        public init(name: String, pid: Int32, status: Int32, signalled: Bool) {
            self.name = name
            self.pid = pid
            self.status = status
            self.signalled = signalled
        }

        /// It exited by itself with status 0.
        public var isClean: Bool { !signalled && status == 0 }

        public var description: String { signalled ? "killed by signal \(status)" : "exited with status \(status)" }
    }

    /// Starts, restarts and exits of one process.
    public struct Record: Sendable, Codable, Equatable {
        public var starts = 0
        public var pid: Int32 = 0
        public var exits: [Exit] = []
        public var restarts: Int { max(0, starts - 1) }
    }

    public private(set) var records: [String: Record] = [:]
    private let executable: URL
    private let directory: RunDirectory
    private let readiness: ReadinessBoard
    private var running: [String: Process] = [:]
    /// Set for every process started (the run's key directory, say).
    public var environment: [String: String] = [:]
    private var exitWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// `readiness` is fed from the bus: a process is ready when its `Ready` has been seen there.
    /// Sets variables of every process's environment from now on.
    public func setEnvironment(_ variables: [String: String]) { environment.merge(variables) { $1 } }

    public init(executable: URL, directory: RunDirectory, readiness: ReadinessBoard) {
        self.executable = executable
        self.directory = directory
        self.readiness = readiness
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
        var record = records[name] ?? Record()
        // Which life of the process this is (1, 2, …): virtual time numbers messages per life.
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            .merging(["RIBCITY_LIFE": "\(record.starts + 1)"]) { $1 }
        let log = try directory.log(for: name)
        if record.starts > 0 { log.write(Data("\(Self.restartMarker)\(record.starts) of \(name)\n".utf8)) }
        if !toTerminal {
            process.standardOutput = log
            process.standardError = log
        } else {
            process.standardError = log
        }
        process.terminationHandler = { [weak self] finished in
            let exit = Exit(
                name: name, pid: finished.processIdentifier, status: finished.terminationStatus,
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

    /// Waits until the process has said on the bus that it is ready (this start of it: its pid),
    /// or fails if it exits or takes too long.
    public func waitUntilReady(_ name: String, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let pid = running[name]?.processIdentifier else {
                // Done before its announcement got out (a restarted rider process with nothing
                // left to ask for): finished, not failed — supervision sees it end.
                if let record = records[name], let exit = record.exits.last, exit.pid == record.pid, exit.isClean { return }
                throw LaunchError.exitedBeforeReady(
                    name, log: String(directory.logText(of: name, latestStartOnly: true).suffix(2_000)))
            }
            if await readiness.isReady(name, pid: pid) { return }
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
        records[exit.name]?.exits.append(exit)
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
