import ArgumentParser
import Foundation
import ProcessSupport
import Topology
import Wire
import ZeroMQ

/// `--join tcp://COORDINATOR:PORT`: a driver or rider process started on another host than the
/// coordinator's (by a service manager, a cluster scheduler, a shell) that joins a run over the
/// bus (docs/ARCHITECTURE.md, "A city across hosts").
struct JoinOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Join a run from another host: the coordinator's bus, tcp://HOST:PORT (the topology's first host and its "
                + "base_port + 2). The coordinator gives this process its part when the run comes to it.",
            valueName: "address"))
    var join: String?

    @Option(help: "With --join: give up when the coordinator has not accepted this process after this many seconds.")
    var joinTimeout: Double = 600

    @Option(help: "With --join: leave the run (exit 1) when nothing of it has come for this many seconds (its coordinator died).")
    var runSilence: Double = 60
}

/// A process that joins a run from another host: asks the coordinator for its part, runs it as
/// the coordinator would have started it, stops when told to, and says when it leaves.
struct RunJoining {
    let role: Role
    let process: Int
    let topologyPath: String
    let address: String
    let timeout: Duration
    /// How long the process waits without a word from the run before it leaves it.
    let runSilence: Duration

    private var name: String { role == .drivers ? WireIDs.driverProcess(process) : WireIDs.riderProcess(process) }

    /// What reaches the joining process: an answer, a stop, or the half-second tick of its asking.
    private enum Heard: Sendable {
        case reply(JoinReply)
        case stop(Stop)
        case tick
        /// Dispatch's health report, which comes every second through the coordinator's bus: the run is alive.
        case runAlive
        /// The part the coordinator gave has ended.
        case finished
    }

    /// The bus's subscriber side: the port after the publisher side the address names.
    static func subscriberSide(of address: String) throws -> String {
        let parts = address.split(separator: ":")
        guard address.hasPrefix("tcp://"), parts.count == 3, let port = Int(parts[2]), (1..<65_535).contains(port) else {
            throw ValidationError(
                "--join \(address): expected tcp://HOST:PORT, the coordinator's bus (the topology's first host, base_port + 2)")
        }
        return "tcp://\(parts[1].dropFirst(2)):\(port + 1)"
    }

    /// Joins, runs the part the coordinator gives, and returns when it is over.
    func run() async throws {
        let plan = try readTopology(topologyPath)
        let processes = role == .drivers ? plan.drivers.processes : plan.riders.processes
        guard (0..<processes).contains(process) else {
            throw ValidationError(
                "--process \(process): the topology has \(processes) \(role == .drivers ? "driver" : "rider") processes")
        }
        let subscriber = try Self.subscriberSide(of: address)
        guard let crc = FileChecksum.crc32(ofFile: topologyPath) else { throw BadInput("\(topologyPath): cannot be read") }
        if plan.usesCurve, (ProcessInfo.processInfo.environment[RunKeys.environmentVariable] ?? "").isEmpty {
            throw ValidationError(
                "\(topologyPath) talks over CURVE: set \(RunKeys.environmentVariable) to the run's key directory "
                    + "(made by `ribcity keys`, the same on every host)")
        }
        try await Transport.using(name: name + "-join") { transport in
            try await secureRole(transport, as: name, sessions: [], bus: [address, subscriber])
            let publisher = try await transport.socket(.pub, options: .eventBus)
            try await publisher.connect(address)
            let listener = try await transport.socket(.sub, options: .eventBus)
            try await listener.connect(subscriber)
            try await listener.subscribe(Topic.joinReply(to: name))
            try await listener.subscribe(Topic.stop(of: name))
            let (heard, hear) = AsyncStream.makeStream(of: Heard.self)
            let listening = Task {
                while let message = try? await listener.receive() {
                    switch (try? Frames.Published(frames: message.frames))?.envelope.body {
                    case .joinReply(let reply)?: hear.yield(.reply(reply))
                    case .stop(let stop)?: hear.yield(.stop(stop))
                    case .processStatus?: hear.yield(.runAlive)
                    default: continue
                    }
                }
            }
            let ticking = Task {
                while !Task.isCancelled {
                    hear.yield(.tick)
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
            defer {
                listening.cancel()
                ticking.cancel()
            }
            var stamper = SequenceStamper(sender: "join.\(name).\(getpid())")
            let request = JoinRequest.with {
                $0.processID = name
                $0.pid = getpid()
                $0.machine = ProcessInfo.processInfo.hostName
                $0.incarnation = UInt64.random(in: 1...UInt64.max)
                $0.topologyCrc = crc
            }
            print("\(name) pid \(getpid()) asks to join the run at \(address)")
            let deadline = ContinuousClock.now + timeout
            var waitingFor = ""
            var events = heard.makeAsyncIterator()
            var accepted: JoinReply?
            while accepted == nil, let event = await events.next() {
                switch event {
                case .tick:
                    guard ContinuousClock.now < deadline else {
                        throw JoinFailure(
                            "no coordinator accepted \(name) at \(address) within \(timeout)"
                                + (waitingFor.isEmpty
                                    ? ": is `ribcity launch` running there, and can this host reach it?"
                                    : " (it was waiting for \(waitingFor))"))
                    }
                    let envelope = Envelope(.joinRequest(request), from: stamper.next())
                    try await publisher.send(Message(Frames.Published(topic: Topic.joinRequest, envelope: envelope).frames))
                case .reply(let reply) where reply.incarnation == request.incarnation:
                    if !reply.refusal.isEmpty { throw JoinFailure("the coordinator refused \(name): \(reply.refusal)") }
                    if reply.accepted {
                        accepted = reply
                    } else if reply.waitingFor != waitingFor {
                        waitingFor = reply.waitingFor
                        print("\(name) waits for \(waitingFor)")
                    }
                case .reply, .stop, .finished, .runAlive:
                    continue
                }
            }
            guard let accepted else { return }
            try await listener.subscribe(Topic.status(of: "dispatch"))
            setenv(ProcessLife.environmentVariable, "\(accepted.life)", 1)
            print("\(name) joined as life \(accepted.life): ribcity \(accepted.arguments.joined(separator: " "))")
            let part = try part(accepted.arguments)
            let running = Task { try await part() }
            let watching = Task {
                _ = try? await running.value
                hear.yield(.finished)
            }
            defer { watching.cancel() }
            // A stop from the coordinator for this life (or any: the run is over): in order, as an
            // interrupt would; abrupt, as a kill would. A run gone silent (its coordinator died
            // without a word) is left, as a failure: a service manager starts the process again, and
            // it rejoins if a coordinator is there.
            var lastHeard = ContinuousClock.now
            var abandoned = false
            while let event = await events.next() {
                switch event {
                case .stop(let stop) where stop.life == accepted.life || stop.life == 0:
                    kill(getpid(), stop.abrupt ? SIGKILL : SIGTERM)
                case .runAlive:
                    lastHeard = .now
                case .tick where !abandoned && ContinuousClock.now - lastHeard > runSilence:
                    print(
                        "\(name): nothing from the run at \(address) for \(runSilence) (no health report of dispatch's through its bus): leaving it"
                    )
                    abandoned = true
                    kill(getpid(), SIGTERM)
                default:
                    break
                }
                if case .finished = event { break }
            }
            var exit = ProcessExit.with {
                $0.processID = name
                $0.pid = getpid()
                $0.life = accepted.life
            }
            do {
                try await running.value
                if abandoned { throw JoinFailure("\(name) left a run that went silent (\(address))") }
            } catch {
                exit.status = 1
                exit.reason = "\(error)"
                try? await leave(exit, on: publisher, stamper: &stamper)
                throw error
            }
            try await leave(exit, on: publisher, stamper: &stamper)
        }
    }

    /// The command the coordinator's arguments and this host's topology make: this process's
    /// own role and number, nothing else.
    private func part(_ arguments: [String]) throws -> @Sendable () async throws -> Void {
        let parsed = try RibCity.parseAsRoot(arguments + ["--topology", topologyPath])
        switch parsed {
        case let command as DriversCommand
        where role == .drivers && command.options.process == process && command.options.join.join == nil:
            return { try await command.run() }
        case let command as RidersCommand
        where role == .riders && command.options.process == process && command.options.join.join == nil:
            return { try await command.run() }
        default:
            throw JoinFailure("the coordinator's answer does not start \(name): ribcity \(arguments.joined(separator: " "))")
        }
    }

    /// Says on the bus that this process leaves the run: a few times, since a publication has no receipt.
    private func leave(_ exit: ProcessExit, on publisher: Socket, stamper: inout SequenceStamper) async throws {
        for _ in 0..<3 {
            let envelope = Envelope(.processExit(exit), from: stamper.next())
            try await publisher.send(Message(Frames.Published(topic: Topic.exit, envelope: envelope).frames))
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// Why a process could not join a run, or left it: a failure of the run (exit 1, no usage text),
/// which a service manager answers by starting the process again.
struct JoinFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
