import Foundation
import SimulatedTime
import TestSupport
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

    static func opening(from socket: Socket, _ reader: inout WindowOpenReader) async throws -> WindowOpening {
        let message = try await socket.receive()
        let opening = reader.opening(from: message.frames)
        return try #require(opening)
    }

    static func send(_ body: Envelope.OneOf_Body, topic: String, on socket: Socket) async throws {
        var stamper = SequenceStamper(sender: "test")
        try await socket.send(Message(Frames.Published(topic: topic, envelope: Envelope(body, from: stamper.next())).frames))
    }

    @Test(
        "Openings go to each participant that said hello, with only its own expectations; reports open the next window at once; dispatch's events, sent before its report, are written in order when the next window opens"
    )
    func overTheLink() async throws {
        try await within(30) { try await Self.overTheLink() }
    }

    static func overTheLink() async throws {
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
            // A report whose lists do not pair up (more names than counts): refused, never half read.
            var unpaired = WindowDone(
                WindowReport(window: 1, participant: ParticipantID("riders-0"), sent: ["dispatch#1": 5], next: nil))
            unpaired.sentTo.append("drivers-0#1")
            try await Self.send(.windowDone(unpaired), topic: Topic.windowDone, on: garbage)
            // The hellos may come before or after the joins: either way each gets the first window.
            await keeper.joined("dispatch", life: 1)
            await keeper.joined("riders-0", life: 1)
            let dispatch = try #require(peers["dispatch"]), rider = try #require(peers["riders-0"])
            var dispatchReader = WindowOpenReader(), riderReader = WindowOpenReader()
            let first = try await Self.opening(from: dispatch, &dispatchReader)
            let riderFirst = try await Self.opening(from: rider, &riderReader)
            #expect(riderFirst.window == first.window && riderFirst.incarnations == ["dispatch": 1, "riders-0": 1])
            #expect(first.window.index == 1 && first.window.start == .zero)
            // Nobody has sent anything yet: nothing is expected (a receiver expecting nothing has no entry).
            #expect(first.expected.isEmpty && riderFirst.expected.isEmpty)

            // Dispatch sends its window's events (stamped out of time order here), then its report.
            var events = SequenceStamper(sender: "dispatch")
            let early = Envelope(.dispatchEvent(DispatchEvent()), from: events.next(), simTimeMs: 100)
            let later = Envelope(.dispatchEvent(DispatchEvent()), from: events.next(), simTimeMs: 300)
            let earliest = Envelope(.dispatchEvent(DispatchEvent()), from: events.next(), simTimeMs: 100)
            for event in [later, early, earliest] {
                try await dispatch.send(Message(Frames.Published(topic: Topic.dispatchRequest, envelope: event).frames))
            }
            let next = SimTime(wireMilliseconds: 500)
            let dispatchReport = WindowReport(
                window: 1, participant: ParticipantID("dispatch"), sent: ["riders-0#1": 2], next: next)
            #expect(await recording.envelopes.isEmpty, "nothing is written before the window is done")
            try await Self.send(.windowDone(WindowDone(dispatchReport)), topic: Topic.windowDone, on: dispatch)
            try await Self.send(
                .windowDone(WindowDone(WindowReport(window: 1, participant: ParticipantID("riders-0"), next: next))),
                topic: Topic.windowDone, on: rider)
            // The lives are as in the first window: left out, and the reader has them from before.
            let second = try await rider.receive()
            let secondOpen = try Frames.Published(frames: second.frames).envelope.windowOpen
            #expect(secondOpen.livesAsBefore && secondOpen.lifeNames.isEmpty)
            var fresh = WindowOpenReader()
            #expect(fresh.opening(from: second.frames) == nil, "as before, with nothing before")
            let secondOpening = riderReader.opening(from: second.frames)
            let forRider = try #require(secondOpening)
            #expect(forRider.incarnations == ["dispatch": 1, "riders-0": 1])
            let forDispatch = try await Self.opening(from: dispatch, &dispatchReader)
            #expect(forRider.window.index == 2 && forRider.window.start == next)
            #expect(forRider.expected == ["riders-0": ["dispatch#1": 2]], "the rider's own expectations only")
            #expect(forDispatch.expected.isEmpty, "dispatch expects nothing, and is not sent the rider's expectations")
            // Handed to the recording at most every flush interval, and at each nudge (the
            // coordinator nudges now and then): a window opened within the interval waits for one.
            var written: [Envelope] = []
            for _ in 0..<1_000 where written.isEmpty {
                await keeper.nudge()
                written = await recording.envelopes
                if written.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(written == [early, earliest, later], "by simulated time, then sender and sequence")
            // The garbage came on a connection of its own: its order among the others' is not fixed.
            var refused = 0
            for _ in 0..<1_000 where refused < 2 {
                refused = await keeper.refused
                if refused < 2 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(refused == 2, "the garbage frame and the report whose lists do not pair up")
        }
    }

    @Test(
        "Over CURVE a participant speaks on the window link only for itself: a report or hello in another's name, or dispatch's events from another process, are refused"
    )
    func onlyForItself() async throws {
        try #require(CurveKeyPair.isAvailable, "Debian's libzmq is built with CURVE")
        try await within(30) { try await Self.onlyForItself() }
    }

    static func onlyForItself() async throws {
        let coordinatorKeys = try CurveKeyPair.generate(), dispatchKeys = try CurveKeyPair.generate()
        let riderKeys = try CurveKeyPair.generate()
        let server = try Transport(name: "keeper-curve"), clients = try Transport(name: "keeper-clients")
        let authenticator = try await server.authenticate(
            admitting: [dispatchKeys.publicKey: "dispatch", riderKeys.publicKey: "riders-0"]) { _ in }
        var options = SocketOptions()
        options.curve = .server(coordinatorKeys)
        let link = try await server.socket(.router, options: options)
        let endpoint = try await link.bind("tcp://127.0.0.1:*")
        let recording = Recording()
        let keeper = TimeKeeper(participants: ["dispatch", "riders-0"], settings: .init(latency: .seconds(0.5)), link: link) {
            await recording.append($0)
        }
        let serving = Task(executorPreference: server.executor) { await keeper.serve() }
        func dealer(_ keys: CurveKeyPair, as name: String) async throws -> Socket {
            var options = SocketOptions()
            options.curve = .client(keys, serverKey: coordinatorKeys.publicKey)
            let socket = try await clients.socket(.dealer, options: options)
            try await socket.connect(endpoint)
            try await send(.windowHello(WindowHello(ParticipantID(name))), topic: Topic.windowHello, on: socket)
            return socket
        }
        let rider = try await dealer(riderKeys, as: "riders-0")
        // The rider's key says hello for dispatch, to be sent dispatch's windows: refused.
        try await send(.windowHello(WindowHello(ParticipantID("dispatch"))), topic: Topic.windowHello, on: rider)
        let dispatch = try await dealer(dispatchKeys, as: "dispatch")
        await keeper.joined("dispatch", life: 1)
        await keeper.joined("riders-0", life: 1)
        var dispatchReader = WindowOpenReader(), riderReader = WindowOpenReader()
        _ = try await opening(from: dispatch, &dispatchReader)
        _ = try await opening(from: rider, &riderReader)
        // The rider reports the window done for dispatch: refused, and the window still waits for dispatch.
        try await send(
            .windowDone(WindowDone(WindowReport(window: 1, participant: ParticipantID("dispatch"), next: nil))),
            topic: Topic.windowDone, on: rider)
        // And passes off an event of its own as dispatch's: refused.
        var stamper = SequenceStamper(sender: "dispatch")
        let forged = Envelope(.dispatchEvent(DispatchEvent()), from: stamper.next(), simTimeMs: 10)
        try await rider.send(Message(Frames.Published(topic: Topic.dispatchRequest, envelope: forged).frames))
        try await send(
            .windowDone(WindowDone(WindowReport(window: 1, participant: ParticipantID("riders-0"), next: nil))),
            topic: Topic.windowDone, on: rider)
        var refused = 0
        for _ in 0..<1_000 where refused < 3 {
            try await Task.sleep(for: .milliseconds(10))
            refused = await keeper.refused
        }
        #expect(refused == 3, "the hello and the report in dispatch's name, and the forged event")
        #expect(await keeper.statistics.windows == 1, "the window waits for dispatch's own report")
        try await send(
            .windowDone(WindowDone(WindowReport(window: 1, participant: ParticipantID("dispatch"), next: nil))),
            topic: Topic.windowDone, on: dispatch)
        var finished = false
        for _ in 0..<1_000 where !finished {
            try await Task.sleep(for: .milliseconds(10))
            finished = await keeper.isFinished
        }
        #expect(finished, "with nothing left to do the run ends once dispatch has reported")
        #expect(await recording.envelopes.isEmpty, "the forged event is not in the recording")
        serving.cancel()
        await authenticator.stop()
        await clients.shutdown()
        await server.shutdown()
    }
}
