import City
import Foundation
import TestSupport
import Testing
import Wire
import ZeroMQ

/// A `ribcity` role started as a child process.
final class RoleProcess: Sendable {
    let process: Process
    /// Where its standard output goes: a file, readable while it runs (a pipe nobody reads
    /// could also fill up and stop it).
    let outputPath: String
    let exit: AsyncStream<Int32>

    init(_ arguments: [String]) throws {
        process = Process()
        outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("role-\(UUID().uuidString).out").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: ribcityBinary!)
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        let (exit, ended) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = {
            ended.yield($0.terminationStatus); ended.finish()
        }
        self.exit = exit
        try ChildProcess.run(process)
    }

    /// Waits until the ipc endpoints it binds exist.
    static func waitForSockets(_ paths: [String]) async throws {
        while !paths.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) { try await Task.sleep(for: .milliseconds(20)) }
    }

    func interrupt() { process.interrupt() }

    /// Its exit status, once it has exited.
    func status() async -> Int32 {
        var status: Int32 = -1
        for await code in exit { status = code }
        return status
    }

    /// What it printed so far.
    var printed: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: outputPath)
    }
}

/// A directory of a test's own, with the suite's small topology in it.
struct Scratch {
    let directory: URL
    let topology: URL

    init(_ tag: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ribcity-\(tag)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        topology = try DispatchProcessTests.topology(in: directory)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("The dispatch and bus roles as real processes")
struct DispatchProcessTests {
    static func topology(in directory: URL) throws -> URL {
        let topology = directory.appendingPathComponent("small.yaml")
        try """
        name: small
        city: { grid: { width_m: 2000, height_m: 2000, block_m: 250, speed_kmh: 36 } }
        dispatch: { strategy: on-arrival }
        drivers: { per_process: 1 }
        riders: { demand: { synthetic: { peak_per_hour: 10 } } }
        """.write(to: topology, atomically: true, encoding: .utf8)
        return topology
    }

    @Test(
        "ribcity dispatch serves a session over ipc, counts and survives a malformed frame, and stops on Stop",
        .enabled(if: ribcityBinary.map { FileManager.default.isExecutableFile(atPath: $0) } ?? false))
    func realProcess() async throws {
        let scratch = try Scratch("dispatch")
        defer { scratch.remove() }
        let (directory, topology) = (scratch.directory, scratch.topology)
        let sessions = directory.appendingPathComponent("s").path, bus = directory.appendingPathComponent("b").path

        let dispatch = try RoleProcess([
            "dispatch", "--topology", topology.path, "--sessions", "ipc://" + sessions, "--bus", "ipc://" + bus, "--speed", "10",
        ])

        // A hang guard only: starting processes under a sanitizer on a busy machine takes time.
        // What dispatch printed goes with a failure: once, under a full parallel run, it was
        // still running 120 s after its Stop.
        try await within(120) {
            try await RoleProcess.waitForSockets([sessions, bus])
            let transport = try Transport(name: "client-io")
            let dealer = try await transport.socket(.dealer)
            try await dealer.connect("ipc://" + sessions)
            var stamper = SequenceStamper(sender: "client")
            func send(_ body: Envelope.OneOf_Body) async throws {
                try await dealer.send(Message([WireCodec.encode(Envelope(body, from: stamper.next()))]))
            }
            func next() async throws -> Envelope { try Frames.direct(await dealer.receive().frames) }
            let graph = GridCity(width: 2_000, height: 2_000, blockLength: 250, speedKmh: 36).build()
            func at(_ node: Int) -> LatLon {
                LatLon.with {
                    $0.lat = graph.positions[node].lat; $0.lon = graph.positions[node].lon
                }
            }

            try await dealer.send(Message([Array("not an envelope".utf8)]))
            let answer = try await next()
            #expect(answer.error.code == .malformed && answer.error.reason.hasPrefix("not a ribcity Envelope"), "\(answer)")
            // Stop is the coordinator's to send. A session silent for longer than dispatch's
            // timeout expires (this test's task can wait that long for a thread when every suite
            // runs under ThreadSanitizer): then it says Hello again and asks anew, as a session
            // client does.
            var attempt = 0
            func openAndRequest() async throws {
                attempt += 1
                try await send(
                    .hello(
                        Hello.with {
                            $0.role = .coordinator; $0.sessionID = "client"; $0.process = "coordinator"
                        }))
                try await send(
                    .driverOnline(
                        DriverOnline.with {
                            $0.driverID = "d-1"; $0.location = at(0)
                        }))
                try await send(
                    .rideRequest(
                        Wire.RideRequest.with {
                            $0.requestID = "req-\(attempt)"; $0.riderID = "r-1"; $0.pickup = at(2); $0.dropoff = at(40)
                        }))
            }
            try await openAndRequest()
            // Heartbeats, as a session client sends them: a session that expired anyway (this
            // task kept from a thread for longer than the timeout) hears "unknown session" in
            // answer to one, instead of waiting in silence for an offer that will not come.
            let heartbeats = Task {
                var beats = SequenceStamper(sender: "client-heartbeats")
                while !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(500))
                    try await dealer.send(Message([WireCodec.encode(Envelope(.heartbeat(Heartbeat()), from: beats.next()))]))
                }
            }
            defer { heartbeats.cancel() }
            var welcomed = false
            var offered = false
            while !offered {
                switch try await next().body {
                case .welcome?: welcomed = true
                case .offer?: offered = true
                case .error(let error)? where error.code == .unknownSession && attempt < 5:
                    try await openAndRequest()
                case .error(let error)?:
                    Issue.record("dispatch refused: \(error)")
                    dispatch.interrupt()
                    return
                default: break
                }
            }
            #expect(welcomed)
            // The Stop is acknowledged; a session that expired meanwhile (this task kept from a
            // thread for longer than dispatch's timeout) hears "unknown session" instead, says
            // Hello again and sends it again — else dispatch would wait for a Stop that never came.
            for _ in 0..<5 {
                let stop = Envelope(.stop(Stop.with { $0.reason = "test over" }), from: stamper.next())
                try await dealer.send(Message([WireCodec.encode(stop)]))
                var answered: Bool?
                while answered == nil {
                    // Silence: dispatch is on its way out (it may go before its Ack does).
                    guard
                        let reply = try? await within(
                            5, "the answer to Stop", { try Frames.direct(await dealer.receive().frames) })
                    else { break }
                    if reply.inReplyTo == stop.messageID { answered = reply.error.code != .unknownSession }
                }
                if answered != false { break }
                try await send(
                    .hello(
                        Hello.with {
                            $0.role = .coordinator; $0.sessionID = "client"; $0.process = "coordinator"
                        }))
            }
            let status = await dispatch.status()
            #expect(status == 0, "dispatch printed: \(dispatch.printed)")
            await transport.shutdown()
        }
        let printed = dispatch.printed
        #expect(printed.contains("ready") && printed.contains("dispatch stopped: 1 malformed"), "\(printed)")
    }

    @Test(
        "Dispatch publishes through the bus proxy process; a subscriber of the bus sees its events; both stop on SIGINT",
        .enabled(if: ribcityBinary.map { FileManager.default.isExecutableFile(atPath: $0) } ?? false))
    func throughTheBus() async throws {
        let scratch = try Scratch("bus")
        defer { scratch.remove() }
        let (directory, topology) = (scratch.directory, scratch.topology)
        let (busIn, busOut, sessions) = (
            directory.appendingPathComponent("in").path, directory.appendingPathComponent("out").path,
            directory.appendingPathComponent("s").path
        )
        let bus = try RoleProcess([
            "bus", "--topology", topology.path, "--publish", "ipc://" + busIn, "--subscribe", "ipc://" + busOut,
        ])
        try await within(120) {
            try await RoleProcess.waitForSockets([busIn, busOut])
            let dispatch = try RoleProcess([
                "dispatch", "--topology", topology.path, "--sessions", "ipc://" + sessions, "--publish-to", "ipc://" + busIn,
            ])
            try await RoleProcess.waitForSockets([sessions])
            let transport = try Transport(name: "bus-client-io")
            let sub = try await transport.socket(.sub)
            try await sub.connect("ipc://" + busOut)
            try await sub.subscribe(Topic.status)
            // Dispatch reports its health about once a second: it arrives through the proxy.
            let status = try Frames.Published(frames: await sub.receive().frames)
            #expect(status.topic == Topic.status(of: "dispatch") && status.envelope.processStatus.role == .dispatch)
            dispatch.interrupt()
            #expect(await dispatch.status() == 0)
            bus.interrupt()
            #expect(await bus.status() == 0)
            #expect(bus.printed.contains("bus stopped"))
            await transport.shutdown()
        }
    }

    @Test(
        "The bus and dispatch, interrupted the moment they say they are ready, stop cleanly: a signal is handled from then on",
        .enabled(if: ribcityBinary.map { FileManager.default.isExecutableFile(atPath: $0) } ?? false))
    func interruptedWhenReady() async throws {
        let scratch = try Scratch("ready")
        defer { scratch.remove() }
        let (directory, topology) = (scratch.directory, scratch.topology)
        // The ready line came before the handler, whose installation libdispatch finishes on
        // another thread: a signal in between ended the process, or was ignored and it ran on.
        for round in 0..<3 {
            let sessions = directory.appendingPathComponent("s\(round)").path
            let bus = directory.appendingPathComponent("b\(round)").path
            let roles: [(name: String, arguments: [String], stopped: String)] = [
                (
                    "bus",
                    ["bus", "--topology", topology.path, "--publish", "ipc://" + bus + "-in", "--subscribe", "ipc://" + bus],
                    "bus stopped"
                ),
                (
                    "dispatch",
                    ["dispatch", "--topology", topology.path, "--sessions", "ipc://" + sessions, "--bus", "ipc://" + bus + "-d"],
                    "dispatch stopped"
                ),
            ]
            for role in roles {
                let process = try RoleProcess(role.arguments)
                try await within(120) {
                    while !process.printed.contains(" ready: ") { try await Task.sleep(for: .milliseconds(1)) }
                    process.interrupt()
                    #expect(await process.status() == 0, "\(role.name), round \(round): \(process.printed)")
                    #expect(process.printed.contains(role.stopped), "\(role.name), round \(round): \(process.printed)")
                }
            }
        }
    }

    @Test(
        "ribcity dispatch --clock-origin-ms keeps the clock it is given: its Welcome says how long ago simulated time began",
        .enabled(if: ribcityBinary.map { FileManager.default.isExecutableFile(atPath: $0) } ?? false))
    func clockOrigin() async throws {
        let scratch = try Scratch("origin")
        defer { scratch.remove() }
        let (directory, topology) = (scratch.directory, scratch.topology)
        let sessions = directory.appendingPathComponent("s").path, bus = directory.appendingPathComponent("b").path
        // Simulated time began 100 wall seconds ago, at 2× the wall clock.
        let began = ContinuousClock.now
        let origin = Int64((Date().timeIntervalSince1970 * 1000).rounded()) - 100_000
        let dispatch = try RoleProcess([
            "dispatch", "--topology", topology.path, "--sessions", "ipc://" + sessions, "--bus", "ipc://" + bus, "--speed", "2",
            "--clock-origin-ms", "\(origin)",
        ])
        try await within(120) {
            try await RoleProcess.waitForSockets([sessions, bus])
            let transport = try Transport(name: "origin-client-io")
            let dealer = try await transport.socket(.dealer)
            try await dealer.connect("ipc://" + sessions)
            var stamper = SequenceStamper(sender: "client")
            let hello = Hello.with {
                $0.role = .coordinator; $0.sessionID = "client"; $0.process = "coordinator"
            }
            try await dealer.send(Message([WireCodec.encode(Envelope(.hello(hello), from: stamper.next()))]))
            let welcome = try Frames.direct(await dealer.receive().frames).welcome
            // The 200 simulated seconds before the test began, and twice the wall time since: how
            // long that was is this test's pace (minutes when a sanitized suite starts at once).
            let since = (ContinuousClock.now - began) / .seconds(1)
            #expect(welcome.simTime.seconds >= 200 && welcome.simTime.seconds <= 200 + 2 * since + 1, "\(welcome), \(since) s")
            dispatch.interrupt()
            #expect(await dispatch.status() == 0)
            await transport.shutdown()
        }
    }
}
