import Foundation
import ProcessSupport
import Wire

/// Starts the run's processes, knows which are running, and records how each exited.
///
/// Each process is `ribcity <arguments>` (this same executable), its standard output and error
/// going to its log in the run directory, or the monitor's to the terminal. A process that runs
/// on another host (a city across hosts) is started there and joins over the bus: starting it
/// means letting it join, and it is stopped or killed by a `Stop` addressed to it
/// (``RemoteMembers``).
public actor Supervisor {
    /// A process that exited.
    public struct Exit: Sendable, Equatable, Codable, CustomStringConvertible {
        public let name: String
        public let pid: Int32
        public let status: Int32
        /// Killed by a signal (`status` is then the signal number).
        public let signalled: Bool
        /// A process on another host that said nothing for this many seconds, given up for dead.
        public let lostFor: Double?
        /// What a process on another host said, or the coordinator saw, about its end.
        public let reason: String?

        public init(name: String, pid: Int32, status: Int32, signalled: Bool, lostFor: Double? = nil, reason: String? = nil) {
            self.name = name
            self.pid = pid
            self.status = status
            self.signalled = signalled
            self.lostFor = lostFor
            self.reason = reason
        }

        /// How a local process that has ended ended.
        init(name: String, finished: Process) {
            self.init(
                name: name, pid: finished.processIdentifier, status: finished.terminationStatus,
                signalled: finished.terminationReason == .uncaughtSignal)
        }

        /// It exited by itself with status 0.
        public var isClean: Bool { !signalled && status == 0 && lostFor == nil }

        public var description: String {
            let how =
                if let lostFor { "went silent for \(Int(lostFor.rounded())) s" } else if signalled {
                    "killed by signal \(status)"
                } else { "exited with status \(status)" }
            return how + (reason.map { " (\($0))" } ?? "")
        }
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
    /// The processes other hosts start, and what tells them so (the bus).
    private var remote: RemoteMembers
    private var publish: (@Sendable (_ topic: String, _ body: Envelope.OneOf_Body) async -> Void)?
    private let log: @Sendable (String) -> Void

    /// `readiness` is fed from the bus: a process is ready when its `Ready` has been seen there.
    /// Sets variables of every process's environment from now on.
    public func setEnvironment(_ variables: [String: String]) { environment.merge(variables) { $1 } }

    /// `remote`: the processes that other hosts start, and what the run knows of them.
    init(
        executable: URL, directory: RunDirectory, readiness: ReadinessBoard, remote: RemoteMembers.Settings,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.executable = executable
        self.directory = directory
        self.readiness = readiness
        self.remote = RemoteMembers(remote)
        self.log = log
    }

    public init(executable: URL, directory: RunDirectory, readiness: ReadinessBoard) {
        self.init(
            executable: executable, directory: directory, readiness: readiness, remote: .init(hosts: [:], topologyCRC: 0),
            log: { _ in })
    }

    /// How the supervisor speaks to processes on other hosts: publishes `body` on the bus under `topic`.
    func connect(publish: @escaping @Sendable (_ topic: String, _ body: Envelope.OneOf_Body) async -> Void) {
        self.publish = publish
    }

    public func isRunning(_ name: String) -> Bool {
        guard remote.isRemote(name) else {
            noticeExit(of: name)
            return running[name] != nil
        }
        carryOut(remote.check(now: .now))
        return remote.current(name) != nil
    }

    public func pid(of name: String) -> Int32? {
        remote.isRemote(name) ? remote.current(name)?.pid : running[name]?.processIdentifier
    }

    /// Takes what the bus says to and of processes on other hosts: their requests to join,
    /// their readiness (which says they are alive) and their goodbyes; and says again, once a
    /// second, the `Stop` of each start it killed that no newer start has replaced yet.
    func heard(_ envelopes: [Envelope]) async {
        var actions: [RemoteMembers.Action] = []
        for envelope in envelopes {
            switch envelope.body {
            case .joinRequest(let request)?: actions += remote.join(request, now: .now)
            case .ready(let ready)?: actions += remote.heard(ready, now: .now)
            case .processExit(let exit)?: actions += remote.left(exit)
            default: continue
            }
        }
        actions += remote.stopsDue(now: .now)
        for (topic, body) in carryOut(actions) { await publish?(topic, body) }
    }

    /// Records the starts and exits the remote members decided, and logs what they say; returns
    /// what to publish (answers to joins, stops of replaced starts).
    @discardableResult
    private func carryOut(_ actions: [RemoteMembers.Action]) -> [(topic: String, body: Envelope.OneOf_Body)] {
        var publications: [(topic: String, body: Envelope.OneOf_Body)] = []
        for action in actions {
            switch action {
            case .answer(let reply):
                publications.append((Topic.joinReply(to: reply.processID), .joinReply(reply)))
                if reply.accepted, records[reply.processID]?.starts != Int(reply.life) {
                    var record = records[reply.processID] ?? Record()
                    record.starts = Int(reply.life)
                    record.pid = remote.current(reply.processID)?.pid ?? 0
                    records[reply.processID] = record
                }
            case .exited(let exit):
                records[exit.name, default: Record()].exits.append(exit)
                exitWaiters.removeValue(forKey: exit.name)?.forEach { $0.resume() }
            case .log(let line):
                log(line)
            case .stopStale(let name, let life):
                publications.append(
                    Self.stop(name, life: life, abrupt: true, reason: "a newer start of \(name) has replaced this one"))
            case .stopKilled(let name, let life):
                publications.append(Self.stop(name, life: life, abrupt: true, reason: Self.killReason))
            }
        }
        return publications
    }

    /// A `Stop` for the start of `name` of life `life` (0: any start, the run is over).
    private static func stop(
        _ name: String, life: UInt32, abrupt: Bool, reason: String
    ) -> (topic: String, body: Envelope.OneOf_Body) {
        (
            Topic.stop(of: name),
            .stop(
                Stop.with {
                    $0.reason = reason
                    $0.abrupt = abrupt
                    $0.life = life
                })
        )
    }

    /// Why a process on another host is stopped abruptly by the coordinator.
    private static let killReason = "killed by the coordinator"

    /// What starts the line the supervisor writes into a process's log before restarting it.
    public static let restartMarker = "--- restart "

    /// Starts `ribcity <arguments>` as process `name`; `toTerminal` keeps the parent's output.
    @discardableResult
    public func start(_ name: String, executable: String? = nil, arguments: [String], toTerminal: Bool = false) throws -> Int32 {
        if remote.isRemote(name) {
            // Its host starts it; the arguments it gets leave out the topology (the file is the host's).
            remote.expect(name, arguments: Self.withoutTopology(arguments))
            return 0
        }
        // Foundation starts each child in a process group of its own, so Ctrl-C in the terminal
        // reaches the coordinator alone, which then stops the processes in order.
        let process = Process()
        process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? self.executable
        process.arguments = arguments
        var record = records[name] ?? Record()
        // Which life of the process this is (1, 2, …): virtual time numbers messages per life.
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            .merging([ProcessLife.environmentVariable: "\(record.starts + 1)"]) { $1 }
        let log = try directory.log(for: name)
        if record.starts > 0 { log.write(Data("\(Self.restartMarker)\(record.starts) of \(name)\n".utf8)) }
        if !toTerminal {
            process.standardOutput = log
            process.standardError = log
        } else {
            process.standardError = log
        }
        process.terminationHandler = { [weak self] finished in
            let exit = Exit(name: name, finished: finished)
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

    /// How often ``waitUntilReady(_:timeout:)`` looks: every start of a run waits for it once per
    /// stage, and in virtual time the first window for it.
    static let readinessPoll: Duration = .milliseconds(5)

    /// Waits until the process has said on the bus that it is ready (this start of it: its pid),
    /// or fails if it exits or takes too long.
    public func waitUntilReady(_ name: String, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        if remote.isRemote(name) {
            let startsBefore = records[name]?.starts ?? 0
            while !remote.isReady(name) {
                if let record = records[name], record.starts > startsBefore, remote.current(name) == nil,
                    let exit = record.exits.last
                {
                    if exit.isClean { return }
                    throw LaunchError.exitedBeforeReady(name, log: "on its host: \(exit)")
                }
                guard ContinuousClock.now < deadline else {
                    let host = remote.settings.hosts[name].map { "\($0.name) (\($0.address))" } ?? "its host"
                    // A start that joined and went no further is not one that never came.
                    if let start = remote.current(name) {
                        throw LaunchError.joinedNotReady(
                            name, host: host, start: "life \(start.life), pid \(start.pid) on \(start.machine)", after: timeout)
                    }
                    throw LaunchError.didNotJoin(name, host: host, after: timeout)
                }
                try await Task.sleep(for: Self.readinessPoll)
            }
            return
        }
        while true {
            noticeExit(of: name)
            guard let pid = running[name]?.processIdentifier else {
                // Done before its announcement got out (a restarted rider process with nothing
                // left to ask for): finished, not failed — supervision sees it end.
                if let record = records[name], let exit = record.exits.last, exit.pid == record.pid, exit.isClean { return }
                throw LaunchError.exitedBeforeReady(
                    name, log: String(directory.logText(of: name, latestStartOnly: true).suffix(2_000)))
            }
            if await readiness.isReady(name, pid: pid) { return }
            guard ContinuousClock.now < deadline else { throw LaunchError.notReady(name, after: timeout) }
            try await Task.sleep(for: Self.readinessPoll)
        }
    }

    /// Sends `signal` to a running process. One on another host gets a `Stop`: abrupt for
    /// SIGKILL (it counts as dead at once), in order for SIGTERM; other signals do not reach it.
    public func signal(_ name: String, _ signal: Int32) async {
        if remote.isRemote(name) {
            guard let current = remote.current(name), signal == SIGKILL || signal == SIGTERM else { return }
            let abrupt = signal == SIGKILL
            let stop = Self.stop(
                name, life: current.life, abrupt: abrupt, reason: abrupt ? Self.killReason : "the run is over")
            await publish?(stop.topic, stop.body)
            if abrupt { carryOut(remote.killed(name, now: .now)) }
            return
        }
        guard let process = running[name] else { return }
        kill(process.processIdentifier, signal)
    }

    /// Asks a process to stop (SIGTERM), kills it after `grace`, and waits until it has exited.
    public func stop(_ name: String, grace: Duration) async {
        if remote.isRemote(name) {
            let deadline = ContinuousClock.now + grace
            // A Stop may be lost on its way: it is said again until the process has left.
            while remote.current(name) != nil, ContinuousClock.now < deadline {
                await signal(name, SIGTERM)
                try? await Task.sleep(for: .milliseconds(250))
            }
            await signal(name, SIGKILL)
            // A start the run gave up for dead may still be alive, cut off: the run is over for it too.
            let stop = Self.stop(name, life: 0, abrupt: false, reason: "the run is over")
            await publish?(stop.topic, stop.body)
            return
        }
        guard running[name] != nil else { return }
        await signal(name, SIGTERM)
        let killer = Task {
            try await Task.sleep(for: grace)
            await self.signal(name, SIGKILL)
        }
        await withCheckedContinuation { continuation in
            if running[name] == nil { continuation.resume() } else { exitWaiters[name, default: []].append(continuation) }
        }
        killer.cancel()
    }

    /// `arguments` without `--topology FILE`.
    static func withoutTopology(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipping = false
        for argument in arguments {
            if skipping {
                skipping = false
            } else if argument == "--topology" {
                skipping = true
            } else {
                kept.append(argument)
            }
        }
        return kept
    }

    /// Records the exit of `name` if its process has ended, without waiting for the termination
    /// handler's task: on a busy machine that task can wait seconds for a thread, and a process
    /// that ended cleanly must not be taken for one that never got ready.
    private func noticeExit(of name: String) {
        guard let process = running[name], !process.isRunning else { return }
        exited(Exit(name: name, finished: process))
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
    case didNotJoin(String, host: String, after: Duration)
    /// A process on another host joined (this start of it: `start`) but did not say it was ready.
    case joinedNotReady(String, host: String, start: String, after: Duration)

    public var description: String {
        switch self {
        case .didNotJoin(let name, let host, let timeout):
            "\(name) did not join from \(host) within \(timeout): start it there with `ribcity "
                + "\(name.split(separator: "-").first ?? "") --topology FILE --process N --join tcp://COORDINATOR:PORT`"
        case .joinedNotReady(let name, let host, let start, let timeout):
            "\(name) joined from \(host) (\(start)) but did not say it was ready within \(timeout): "
                + "its log on that host says how far it got"
        case .exitedBeforeReady(let name, let log): "\(name) exited before it was ready; its log ends:\n\(log)"
        case .notReady(let name, let timeout): "\(name) was not ready after \(timeout)"
        }
    }
}
