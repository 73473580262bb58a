import Foundation
import TestSupport
import Testing

@testable import ZeroMQ

@Suite("Input held until another socket receives (Socket.holdInput)")
struct HeldInputTests {
    /// A server with three ROUTERs on packet links and a client with a DEALER to each: `held`'s
    /// input is the one held, `gate` the socket that lets it go, `probe` shows the client's I/O
    /// thread has run a turn. Each DEALER has said hello, so each ROUTER knows its peer.
    private struct Setup {
        let server: Transport
        let client: Transport
        let routers: [Socket]
        let dealers: [Socket]
        let peers: [[UInt8]]

        var held: Socket { dealers[0] }
        var gate: Socket { dealers[1] }
        var probe: Socket { dealers[2] }

        /// Over packet links (`unix://`), or over libzmq (`tcp://`, whose descriptors signal edges).
        init(overLibzmq: Bool = false) async throws {
            server = try Transport(name: "held-server")
            client = try Transport(name: "held-client")
            var routers: [Socket] = []
            var dealers: [Socket] = []
            var peers: [[UInt8]] = []
            for name in ["held", "gate", "probe"] {
                let router = try await server.socket(.router, options: SocketOptions())
                let address = try await router.bind(
                    overLibzmq
                        ? "tcp://127.0.0.1:*"
                        : "unix://" + NSTemporaryDirectory() + "ribcity-held-\(name)-\(UInt32.random(in: 0...UInt32.max))")
                let dealer = try await client.socket(.dealer, options: SocketOptions())
                try await dealer.connect(address)
                try await dealer.send(Message([Array("hello".utf8)]))
                peers.append(try await router.receive().first)
                routers.append(router)
                dealers.append(dealer)
            }
            self.routers = routers
            self.dealers = dealers
            self.peers = peers
        }

        /// Sends `text` from ROUTER `index` to its DEALER, and waits until the server's I/O thread
        /// has handed it over: on a packet link it is then in the client's kernel queue.
        func push(_ text: String, from index: Int) async throws {
            let before = routers[index].statistics().sent
            try await routers[index].send(Message([peers[index], Array(text.utf8)]))
            #expect(await eventually { routers[index].statistics().sent > before })
        }

        /// Shows that the client's I/O thread has run a turn since now: `text` goes to the probe
        /// and is received there.
        func turn(_ text: String) async throws {
            try await push(text, from: 2)
            #expect(try await probe.receive().frames == [Array(text.utf8)])
        }

        /// Holds `held`'s input until the gate's, then has `text` arrive on it and the client's
        /// I/O thread run a turn after it (the probe): it stays unread.
        func holdWithWaiting(_ text: String) async throws {
            held.holdInput(until: gate, atMost: .seconds(600))
            try await push(text, from: 0)
            // The probe's message comes after the held one is in the kernel: the turn that reads
            // it would have read the held socket too, had it been polled.
            try await turn("a turn")
            #expect(held.statistics().received == 0, "nothing read while held")
        }

        func shutdown() async {
            await client.shutdown()
            await server.shutdown()
        }
    }

    @Test(
        "What comes while held stays unread through turns of the loop, is read when the gate receives, and is handed out before the gate's message"
    )
    func readWithTheGate() async throws {
        try await within(30) {
            let setup = try await Setup()
            try await setup.holdWithWaiting("due later")
            // A send while held still goes.
            try await setup.held.send(Message([Array("sent while held".utf8)]))
            #expect(try await setup.routers[0].receive().rest == [Array("sent while held".utf8)])
            #expect(setup.held.statistics().received == 0)

            try await setup.push("opening", from: 1)
            #expect(try await setup.gate.receive().frames == [Array("opening".utf8)])
            let held = setup.held.statistics()
            #expect(
                held.received == 1 && held.queuedInbound == 1,
                "read in the turn that read the gate, before its message was handed out")
            #expect(try await setup.held.receive().frames == [Array("due later".utf8)])

            // Let go, the socket is read as it receives.
            try await setup.push("after", from: 0)
            #expect(try await setup.held.receive().frames == [Array("after".utf8)])
            await setup.shutdown()
        }
    }

    @Test(
        "A hold asked for reading first takes in what is waiting when it is asked for, and holds only what comes after"
    )
    func readingFirst() async throws {
        try await within(30) {
            let setup = try await Setup()
            try await setup.holdWithWaiting("there already")

            // Asked again, reading first (as a participant does at each report): what waits is
            // read without the gate.
            setup.held.holdInput(until: setup.gate, atMost: .seconds(600), readingFirst: true)
            try await setup.turn("another turn")
            #expect(try await setup.held.receive().frames == [Array("there already".utf8)])

            // What comes after is held until the gate receives, as before.
            try await setup.push("due later", from: 0)
            try await setup.turn("a third turn")
            #expect(setup.held.statistics().received == 1, "only what was there when the hold was asked for")
            try await setup.push("opening", from: 1)
            #expect(try await setup.gate.receive().frames == [Array("opening".utf8)])
            #expect(try await setup.held.receive().frames == [Array("due later".utf8)])
            await setup.shutdown()
        }
    }

    @Test("Held input is read after the hold's limit though the gate stays silent", arguments: [false, true])
    func readAfterTheLimit(overLibzmq: Bool) async throws {
        try await within(30) {
            let setup = try await Setup(overLibzmq: overLibzmq)
            setup.held.holdInput(until: setup.gate, atMost: .milliseconds(20))
            try await setup.push("late", from: 0)
            #expect(try await setup.held.receive().frames == [Array("late".utf8)])
            // Let go by its limit, it is read as it receives.
            try await setup.push("after", from: 0)
            #expect(try await setup.held.receive().frames == [Array("after".utf8)])
            #expect(setup.gate.statistics().received == 0)
            await setup.shutdown()
        }
    }

    @Test("A socket held until one that closes is read again", arguments: [false, true])
    func gateClosed(overLibzmq: Bool) async throws {
        try await within(30) {
            let setup = try await Setup(overLibzmq: overLibzmq)
            setup.held.holdInput(until: setup.gate, atMost: .seconds(600))
            try await setup.push("kept", from: 0)
            await setup.gate.close()
            #expect(try await setup.held.receive().frames == [Array("kept".utf8)])
            await setup.shutdown()
        }
    }
}
