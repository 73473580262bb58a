import Foundation
import Testing
import Topology
import Wire

@testable import Coordinator

/// Readiness is a value on the bus: a `Ready` naming the process and its pid.
@Suite("Readiness: a process is ready when its Ready for this pid is on the bus")
struct ReadinessTests {
    static func ready(_ name: String, pid: Int32) -> Envelope {
        var stamper = SequenceStamper(sender: "ready.\(name).\(pid)")
        return Envelope(
            .ready(
                Ready.with {
                    $0.processID = name; $0.pid = pid; $0.role = .dispatch
                }), from: stamper.next())
    }

    @Test("The board keeps announcements by name and pid; other messages and other pids do not count")
    func board() async {
        let board = ReadinessBoard()
        var other = SequenceStamper(sender: "x")
        await board.apply([Self.ready("dispatch", pid: 10), Envelope(.heartbeat(Heartbeat()), from: other.next())])
        #expect(await board.isReady("dispatch", pid: 10))
        #expect(await !board.isReady("dispatch", pid: 11), "a restart (a new pid) has not said it yet")
        #expect(await !board.isReady("drivers-0", pid: 10))
    }

    /// A scratch run directory and a supervisor over real processes (`/bin/sh`), with the
    /// processes in `remote` run by other hosts.
    static func supervisor(remote: [String: Topology.Host] = [:]) throws -> (Supervisor, ReadinessBoard, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let board = ReadinessBoard()
        let supervisor = Supervisor(
            executable: URL(fileURLWithPath: "/bin/sh"), directory: RunDirectory(existing: path), readiness: board,
            remote: .init(hosts: remote, topologyCRC: 7), log: { _ in })
        return (supervisor, board, path)
    }

    @Test("A log line saying ready is not readiness; the Ready of the process's own pid is")
    func readyOnTheBusOnly() async throws {
        let (supervisor, board, path) = try Self.supervisor()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pid = try await supervisor.start("dispatch", arguments: ["-c", "echo 'dispatch pid 1 ready'; exec sleep 600"])
        await #expect(throws: LaunchError.self) { try await supervisor.waitUntilReady("dispatch", timeout: .milliseconds(400)) }
        await board.apply([Self.ready("dispatch", pid: pid)])
        try await supervisor.waitUntilReady("dispatch", timeout: .seconds(5))
        await supervisor.signal("dispatch", SIGKILL)
    }

    @Test("A process that finishes cleanly before announcing is done, not failed; one that fails is an error with its log")
    func exitsBeforeReady() async throws {
        let (supervisor, _, path) = try Self.supervisor()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await supervisor.start("riders-0", arguments: ["-c", "echo 'nothing left to ask for'"])
        try await supervisor.waitUntilReady("riders-0", timeout: .seconds(10))
        #expect(await supervisor.records["riders-0"]?.exits.last?.isClean == true)

        try await supervisor.start("riders-1", arguments: ["-c", "echo 'bad topology'; exit 3"])
        do {
            try await supervisor.waitUntilReady("riders-1", timeout: .seconds(10))
            Issue.record("a failed process was taken as ready")
        } catch LaunchError.exitedBeforeReady(let name, let log) {
            #expect(name == "riders-1" && log.contains("bad topology"))
        }
        let exit = await supervisor.records["riders-1"]?.exits.last
        #expect(exit?.status == 3 && exit?.signalled == false && exit?.isClean == false)
    }

    @Test(
        "A process on another host that never joins did not join; one that joined and never said it was ready is named with its start"
    )
    func remoteNotReady() async throws {
        let town = Topology.Host(name: "town", address: "10.0.0.3")
        let (supervisor, _, path) = try Self.supervisor(remote: ["riders-0": town, "riders-1": town])
        defer { try? FileManager.default.removeItem(atPath: path) }
        for name in ["riders-0", "riders-1"] {
            try await supervisor.start(name, arguments: ["riders", "--topology", "city.yaml", "--process", "\(name.suffix(1))"])
        }
        var stamper = SequenceStamper(sender: "join.riders-0.40")
        let join = JoinRequest.with {
            $0.processID = "riders-0"
            $0.pid = 40
            $0.machine = "town-1"
            $0.incarnation = 9
            $0.topologyCrc = 7
        }
        await supervisor.heard([Envelope(.joinRequest(join), from: stamper.next())])
        do {
            try await supervisor.waitUntilReady("riders-0", timeout: .milliseconds(200))
            Issue.record("a start that never said it was ready was taken as ready")
        } catch LaunchError.joinedNotReady(let name, let host, let start, _) {
            #expect(name == "riders-0" && host == "town (10.0.0.3)" && start == "life 1, pid 40 on town-1")
        }
        do {
            try await supervisor.waitUntilReady("riders-1", timeout: .milliseconds(200))
            Issue.record("a process that never joined was taken as ready")
        } catch LaunchError.didNotJoin(let name, let host, _) {
            #expect(name == "riders-1" && host == "town (10.0.0.3)")
        }
    }

    @Test("A run's outcome reads back from summary.json as written")
    func outcomeRoundTrip() throws {
        for outcome in [
            RunOutcome.completed, .stopped, .wallLimitReached(seconds: 150),
            .failed("dispatch exited with status 1, and is not restarted"),
        ] {
            let data = try JSONEncoder().encode([outcome])
            #expect(try JSONDecoder().decode([RunOutcome].self, from: data) == [outcome])
        }
        #expect(RunOutcome.wallLimitReached(seconds: 150).description == "stopped: wall-time limit of 150 s reached")
    }
}
