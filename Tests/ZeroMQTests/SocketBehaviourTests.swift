import TestSupport
import Testing

@testable import ZeroMQ

@Suite("Socket behaviour")
struct SocketBehaviourTests {
    @Test("ROUTER_MANDATORY to an unknown peer is an error, not a silent drop")
    func routerMandatoryUnknownPeer() async throws {
        try await within(20) {
            let transport = try Transport()
            var options = SocketOptions()
            options.routerMandatory = true
            let router = try await transport.socket(.router, options: options)
            try await router.bind("inproc://mandatory")

            let error = await #expect(throws: ZMQError.self) {
                try await router.sendConfirmed(Message(strings: ["nobody", "hello"]))
            }
            #expect(error?.isHostUnreachable == true)

            try await router.send(Message(strings: ["nobody-either", "hello"]))
            var events = router.events.makeAsyncIterator()
            let event = await events.next()
            #expect(event?.kind == .sendFailed)
            #expect(router.statistics().sendFailures == 2)
            await transport.shutdown()
        }
    }

    @Test(
        "A batch with an unroutable message in the middle: that one fails alone, the messages on either side arrive whole and in order"
    )
    func batchWithFailureInTheMiddle() async throws {
        try await within(20) {
            let transport = try Transport()
            var options = SocketOptions()
            options.routerMandatory = true
            let router = try await transport.socket(.router, options: options)
            try await router.bind("inproc://batch-failure")
            let dealer = try await transport.socket(.dealer)
            try await dealer.connect("inproc://batch-failure")
            try await dealer.send(Message(strings: ["hello"]))
            let hello = try await router.receive()
            let peer = hello.first

            try await router.send(contentsOf: [
                Message([peer, Array("one".utf8)]),
                Message([Array("nobody".utf8), Array("lost".utf8)]),
                Message([peer, Array("two".utf8), Array("and more".utf8)]),
                Message([peer, Array("three".utf8)]),
            ])
            var received: [[String]] = []
            while received.count < 3 { received.append(try await dealer.receive().strings) }
            #expect(received == [["one"], ["two", "and more"], ["three"]])
            var events = router.events.makeAsyncIterator()
            #expect(await events.next()?.kind == .sendFailed)
            await transport.shutdown()
            // Counted by the I/O thread after each pass of sends: final once it has stopped.
            #expect(router.statistics().sendFailures == 1)
            #expect(router.statistics().sent == 3)
        }
    }

    /// With libzmq's default infinite LINGER this would hang forever on the unsent messages;
    /// `within` turns a hang into a failure. (No wall-clock bound: timing belongs in benchmarks.)
    @Test("Shutdown with a dead peer ends once LINGER lets the unsent messages go")
    func shutdownWithDeadPeer() async throws {
        try await within(30) {
            let transport = try Transport()
            var options = SocketOptions()
            options.linger = .milliseconds(200)
            let dealer = try await transport.socket(.dealer, options: options)
            // The peer never answers: nothing listens on this port.
            try await dealer.connect("tcp://127.0.0.1:1")
            try await dealer.send(contentsOf: (0..<100).map { Message(Array("\($0)".utf8)) })
            await transport.shutdown()
            let stats = dealer.statistics()
            #expect(stats.sent + stats.sendFailures == 100)
            #expect(stats.queuedOutbound == 0)
        }
    }

    /// The bug this catches: a joined process that left a silent run threw past its transport,
    /// exited while libzmq's threads were still up, and ThreadSanitizer's leak report turned its
    /// exit status 1 into 66.
    @Test("Transport.using shuts its transport down when the body throws, as when it returns")
    func usingShutsDownOnThrow() async throws {
        struct Failure: Error {}
        try await within(20) {
            var kept: Socket?
            await #expect(throws: Failure.self) {
                try await Transport.using(name: "using-throws") { transport in
                    let socket = try await transport.socket(.dealer)
                    try await socket.connect("inproc://nobody")
                    kept = socket
                    throw Failure()
                }
            }
            let closed = await #expect(throws: ZMQError.self) {
                try await kept?.connect("inproc://still-nobody")
            }
            #expect(closed != nil)
            let returned = try await Transport.using(name: "using-returns") { transport in
                kept = try await transport.socket(.dealer)
                return 7
            }
            #expect(returned == 7)
            await #expect(throws: ZMQError.self) {
                try await kept?.connect("inproc://nobody-again")
            }
        }
    }

    @Test("Monitor events report connects and disconnects")
    func monitorEvents() async throws {
        // Each event resumes this test on one of the two threads that run every suite's tasks,
        // which the suite's long synchronous tests can hold for minutes under ThreadSanitizer.
        try await within(120) {
            let transport = try Transport()
            let server = try await transport.socket(.router)
            let endpoint = try await server.bind("tcp://127.0.0.1:*")
            var options = SocketOptions()
            options.monitor = true
            // Not retrying for an hour once the server has gone: retries every 50 ms made about
            // 40 events a second, and a test held for half a minute found the disconnection pushed
            // out of the socket's 1,024 newest events and waited for good (two CI runs under TSan).
            options.reconnectInterval = .seconds(3_600)
            let client = try await transport.socket(.dealer, options: options)
            try await client.connect(endpoint)
            var events = client.events.makeAsyncIterator()
            var kinds: [SocketEvent.Kind] = []
            while let event = await events.next() {
                kinds.append(event.kind)
                if event.kind == .handshakeSucceeded { break }
            }
            #expect(kinds.contains(.connected))
            #expect(kinds.last == .handshakeSucceeded)

            await server.close()
            while let event = await events.next() {
                if event.kind == .disconnected {
                    #expect(event.endpoint == endpoint)
                    break
                }
            }
            await transport.shutdown()
        }
    }

    @Test("Closed sockets refuse work and end their streams")
    func closedSocket() async throws {
        try await within(20) {
            let transport = try Transport()
            let pull = try await transport.socket(.pull)
            let push = try await transport.socket(.push)
            await pull.close()
            await pull.close()
            await #expect(throws: ZMQError.self) { try await pull.receive() }
            await #expect(throws: ZMQError.self) { try await pull.bind("inproc://closed") }
            var batches = pull.batches().makeAsyncIterator()
            #expect(try await batches.next() == nil)

            await transport.shutdown()
            let error = await #expect(throws: ZMQError.self) { try await push.send(Message([1])) }
            #expect(error?.isClosed == true)
            await #expect(throws: ZMQError.self) { try await transport.socket(.pub) }
            await transport.shutdown()
        }
    }

    @Test("Every option is accepted by libzmq, infinite LINGER included")
    func allOptions() async throws {
        try await within(20) {
            let transport = try Transport()
            var options = SocketOptions()
            options.linger = .seconds(-1)
            options.sendHighWaterMark = 10
            options.receiveHighWaterMark = 10
            options.immediate = true
            options.reconnectInterval = .milliseconds(100)
            options.reconnectIntervalMax = .seconds(5)
            options.heartbeatInterval = .seconds(1)
            options.heartbeatTimeout = .seconds(5)
            options.heartbeatTTL = .seconds(10)
            options.routingID = Array("everything".utf8)
            let dealer = try await transport.socket(.dealer, options: options)
            await dealer.close()
            var router = SocketOptions()
            router.routerMandatory = true
            _ = try await transport.socket(.router, options: router)
            var xpub = SocketOptions()
            xpub.xpubVerbose = true
            _ = try await transport.socket(.xpub, options: xpub)
            for type in SocketType.allCases {
                let socket = try await transport.socket(type)
                #expect(socket.type == type)
                #expect(!type.description.isEmpty)
            }
            await transport.shutdown()
        }
    }

    @Test("Bad endpoints are errors naming the endpoint")
    func badEndpoint() async throws {
        try await within(20) {
            let transport = try Transport()
            let socket = try await transport.socket(.pub)
            let error = await #expect(throws: ZMQError.self) { try await socket.bind("nonsense://x") }
            #expect(error?.description.contains("nonsense://x") == true)
            await transport.shutdown()
        }
    }

    @Test("The XSUB/XPUB proxy forwards publishers to subscribers and stops cleanly")
    func proxyForwards() async throws {
        try await within(20) {
            let transport = try Transport()
            let proxy = try await Proxy.start(
                on: transport,
                frontend: .init(.xsub, bind: "tcp://127.0.0.1:*"),
                backend: .init(.xpub, bind: "tcp://127.0.0.1:*")
            )
            let sub = try await transport.socket(.sub, options: .subscribing(to: ["dispatch."]))
            try await sub.connect(proxy.backendEndpoint)
            let pub = try await transport.socket(.pub)
            try await pub.connect(proxy.frontendEndpoint)

            // The subscription travels SUB → XPUB → XSUB → PUB; publish until it has arrived.
            var received: Message?
            while received == nil {
                try await pub.send(Message(strings: ["dispatch.request", "payload"]))
                try await pub.send(Message(strings: ["other.topic", "filtered"]))
                received = try await attempt(0.1) { try await sub.receive() }
            }
            #expect(received?.strings == ["dispatch.request", "payload"])
            await proxy.stop()
            await proxy.stop()
            await transport.shutdown()
        }
    }
}
