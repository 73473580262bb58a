import Foundation
import SimulatedTime
import Testing
import VirtualTime
import Wire
import ZeroMQ

@testable import Coordinator

@Suite("The keeper of virtual time over its window link")
struct TimeKeeperTests {
    /// What the keeper writes to the recording.
    actor Recording {
        var envelopes: [Envelope] = []
        func append(_ more: [Envelope]) { envelopes += more }
    }

    static func opening(from socket: Socket) async throws -> WindowOpening {
        let message = try await socket.receive()
        return try #require(WindowOpening(published: message.frames))
    }

    static func send(_ body: Envelope.OneOf_Body, topic: String, on socket: Socket) async throws {
        var stamper = SequenceStamper(sender: "test")
        try await socket.send(Message(Frames.Published(topic: topic, envelope: Envelope(body, from: stamper.next())).frames))
    }

    @Test(
        "Openings go to each participant that said hello, with only its own expectations; reports open the next window at once; dispatch's events are written only once its report's copy has come over the bus"
    )
    func overTheLink() async throws {
        try await Transport.using(name: "keeper-test") { transport in
            let path = NSTemporaryDirectory() + "ribcity-keeper-test-\(getpid())"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let link = try await transport.socket(.router)
            let endpoint = try await link.bind("ipc://" + path)
            let recording = Recording()
            let keeper = TimeKeeper(
                participants: ["dispatch", "riders-0"], settings: .init(latency: .seconds(0.5)), link: link
            ) { await recording.append($0) }
            let serving = Task(executorPreference: transport.executor) { await keeper.serve() }
            defer { serving.cancel() }
            var peers: [String: Socket] = [:]
            for name in ["dispatch", "riders-0"] {
                let dealer = try await transport.socket(.dealer)
                try await dealer.connect(endpoint)
                try await Self.send(.windowHello(WindowHello(ParticipantID(name))), topic: Topic.windowHello, on: dealer)
                peers[name] = dealer
            }
            let garbage = try await transport.socket(.dealer)
            try await garbage.connect(endpoint)
            try await garbage.send(Message([Array("not a report".utf8)]))
            // The hellos may come before or after the joins: either way each gets the first window.
            await keeper.joined("dispatch", life: 1)
            await keeper.joined("riders-0", life: 1)
            let dispatch = try #require(peers["dispatch"]), rider = try #require(peers["riders-0"])
            let first = try await Self.opening(from: dispatch)
            let riderFirst = try await Self.opening(from: rider)
            #expect(riderFirst.window == first.window && riderFirst.incarnations == ["dispatch": 1, "riders-0": 1])
            #expect(first.window.index == 1 && first.window.start == .zero)
            #expect(Array(first.expected.keys) == ["dispatch"] && Array(riderFirst.expected.keys) == ["riders-0"])

            // Dispatch publishes an event in the window, then its report on the bus and on the link.
            var events = SequenceStamper(sender: "dispatch")
            let event = Envelope(.dispatchEvent(DispatchEvent()), from: events.next(), simTimeMs: 100)
            await keeper.take([event])
            let next = SimTime(wireMilliseconds: 500)
            let dispatchReport = WindowReport(
                window: 1, participant: ParticipantID("dispatch"), sent: ["riders-0#1": 2], next: next)
            try await Self.send(.windowDone(WindowDone(dispatchReport, published: true)), topic: Topic.windowDone, on: dispatch)
            try await Self.send(
                .windowDone(WindowDone(WindowReport(window: 1, participant: ParticipantID("riders-0"), next: next))),
                topic: Topic.windowDone, on: rider)
            let forRider = try await Self.opening(from: rider)
            let forDispatch = try await Self.opening(from: dispatch)
            #expect(forRider.window.index == 2 && forRider.window.start == next)
            #expect(forRider.expected == ["riders-0": ["dispatch#1": 2]], "the rider's own expectations only")
            #expect(Array(forDispatch.expected.keys) == ["dispatch"] && forDispatch.expectations(of: "dispatch").isEmpty)
            #expect(await recording.envelopes.isEmpty, "the window opened, but its events wait for the report's copy on the bus")
            var reports = SequenceStamper(sender: "dispatch-window")
            await keeper.take([Envelope(.windowDone(WindowDone(dispatchReport, published: true)), from: reports.next())])
            #expect(await recording.envelopes == [event])
            #expect(await keeper.refused == 1, "the garbage frame")
        }
    }
}
