import Foundation
import TestSupport
import Testing

@testable import ZeroMQ

@Suite("Unix packet link: a ROUTER and its DEALERs without libzmq")
struct PacketSocketTests {
    /// A fresh socket path under the temporary directory.
    private func endpoint(_ name: String) -> String {
        "unix://" + NSTemporaryDirectory() + "ribcity-packet-\(name)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// A ROUTER bound to a fresh path on a transport of its own, and a DEALER connected to it on another.
    private struct Link {
        let server: Transport
        let client: Transport
        let router: Socket
        let dealer: Socket

        init(_ address: String, router routerOptions: SocketOptions = SocketOptions()) async throws {
            server = try Transport(name: "packet-server")
            client = try Transport(name: "packet-client")
            router = try await server.socket(.router, options: routerOptions)
            try await router.bind(address)
            dealer = try await client.socket(.dealer)
            try await dealer.connect(address)
        }

        func shutdown() async {
            await client.shutdown()
            await server.shutdown()
        }
    }

    @Test(
        "Two DEALERs (each on a transport of its own) and a ROUTER: every frame arrives whole, under its sender's identity, and each answer reaches only its addressee"
    )
    func routesByIdentity() async throws {
        try await within(20) {
            let server = try Transport(name: "packet-server")
            let clients = [try Transport(name: "packet-a"), try Transport(name: "packet-b")]
            let address = endpoint("route")
            let router = try await server.socket(.router, options: SocketOptions())
            #expect(try await router.bind(address) == address)
            var dealers: [Socket] = []
            for (index, transport) in clients.enumerated() {
                let dealer = try await transport.socket(.dealer, options: SocketOptions())
                try await dealer.connect(address)
                try await dealer.send(Message([Array("hello".utf8), [], Array(repeating: UInt8(index), count: 3_000)]))
                dealers.append(dealer)
            }
            var identities: [UInt8: [UInt8]] = [:]
            for _ in 0..<2 {
                let message = try await router.receive()
                #expect(message.frameCount == 4, "the identity, then the three frames sent")
                #expect(message.rest[0] == Array("hello".utf8) && message.rest[1].isEmpty && message.rest[2].count == 3_000)
                identities[message.rest[2][0]] = message.first
            }
            #expect(identities.count == 2 && identities[0] != identities[1])
            for index: UInt8 in [1, 0] {
                try await router.send(Message([identities[index]!, [index, 42]]))
            }
            for (index, dealer) in dealers.enumerated() {
                #expect(try await dealer.receive().frames == [[UInt8(index), 42]])
            }
            for transport in clients { await transport.shutdown() }
            await server.shutdown()
            // Read once the I/O thread has stopped: it counts a run of sends after handing it over,
            // so a DEALER can have its answer before the ROUTER's count says it was sent.
            #expect(router.statistics().sent == 2 && router.statistics().received == 2)
            #expect(
                !FileManager.default.fileExists(atPath: String(address.dropFirst("unix://".count))),
                "the socket file is removed on close")
        }
    }

    @Test(
        "A ROUTER bound over libzmq that also binds a packet link serves both: each DEALER known by its routing id, each answer back the way its peer came, a second packet DEALER with a name in use refused"
    )
    func servesBothKinds() async throws {
        try await within(20) {
            let server = try Transport(name: "split-server")
            let clients = [try Transport(name: "split-zmq"), try Transport(name: "split-packets")]
            let local = endpoint("split")
            let libzmqAddress = "ipc://" + String(local.dropFirst("unix://".count)) + ".zmq"
            let router = try await server.socket(.router, options: SocketOptions())
            _ = try await router.bind(libzmqAddress)
            #expect(try await router.bind(local) == local)
            func dealer(_ name: String, on transport: Transport, at address: String) async throws -> Socket {
                var options = SocketOptions()
                options.routingID = Array(name.utf8)
                let dealer = try await transport.socket(.dealer, options: options)
                try await dealer.connect(address)
                try await dealer.send(Message(Array("hello from \(name)".utf8)))
                return dealer
            }
            let overZMQ = try await dealer("riders-0:1", on: clients[0], at: libzmqAddress)
            let overPackets = try await dealer("drivers-0:1", on: clients[1], at: local)
            var heard: [String: String] = [:]
            for _ in 0..<2 {
                let message = try await router.receive()
                heard[String(decoding: message.first, as: UTF8.self)] = String(decoding: message.rest[0], as: UTF8.self)
            }
            #expect(heard == ["riders-0:1": "hello from riders-0:1", "drivers-0:1": "hello from drivers-0:1"])
            // One batch for both sides, interleaved: each message leaves by its peer's side, in order.
            try await router.send(contentsOf: [
                Message([Array("drivers-0:1".utf8), [1]]), Message([Array("riders-0:1".utf8), [2]]),
                Message([Array("drivers-0:1".utf8), [3]]), Message([Array("riders-0:1".utf8), [4]]),
            ])
            #expect(try await overPackets.receive().frames == [[1]])
            #expect(try await overPackets.receive().frames == [[3]])
            #expect(try await overZMQ.receive().frames == [[2]])
            #expect(try await overZMQ.receive().frames == [[4]])

            // A third process naming itself as the packet DEALER already connected is not let in.
            let intruder = try await dealer("drivers-0:1", on: clients[0], at: local)
            try await Task.sleep(for: .milliseconds(50))
            try await overPackets.send(Message(Array("still me".utf8)))
            let next = try await router.receive()
            #expect(String(decoding: next.first, as: UTF8.self) == "drivers-0:1")
            #expect(next.rest == [Array("still me".utf8)], "the intruder's hello never arrives")
            try await router.send(Message([Array("drivers-0:1".utf8), [5]]))
            #expect(try await overPackets.receive().frames == [[5]])
            _ = intruder
            for transport in clients { await transport.shutdown() }
            await server.shutdown()
            try? FileManager.default.removeItem(atPath: String(libzmqAddress.dropFirst("ipc://".count)))
        }
    }

    @Test(
        "A message to an identity the ROUTER does not know fails (as with ROUTER_MANDATORY); so does one to a DEALER that has gone"
    )
    func unknownAndGonePeers() async throws {
        try await within(20) {
            let link = try await Link(endpoint("gone"))
            let router = link.router
            let error = await #expect(throws: ZMQError.self) {
                try await router.sendConfirmed(Message([[0, 0, 0, 99], Array("lost".utf8)]))
            }
            #expect(error?.isHostUnreachable == true)

            try await link.dealer.send(Message(Array("hi".utf8)))
            let identity = try await router.receive().first
            await link.client.shutdown()
            // The ROUTER learns of the close when it next reads; until then a send may still go.
            var failure: ZMQError?
            while failure == nil {
                do {
                    try await router.sendConfirmed(Message([identity, Array("anyone?".utf8)]))
                    try await Task.sleep(for: .milliseconds(5))
                } catch let error as ZMQError {
                    failure = error
                }
            }
            #expect(failure?.isHostUnreachable == true, "\(String(describing: failure))")
            await link.server.shutdown()
        }
    }

    @Test(
        "A reader slower than its writer: the writer waits for room (the socket's buffer fills) and every message arrives once, in order"
    )
    func backPressure() async throws {
        try await within(60) {
            var slow = SocketOptions()
            slow.inboundCapacity = 16
            let link = try await Link(endpoint("slow"), router: slow)
            let (router, dealer) = (link.router, link.dealer)
            let count = 20_000
            let payload = [UInt8](repeating: 7, count: 1_000)
            let sending = Task {
                for start in stride(from: 0, to: count, by: 500) {
                    let batch = (start..<start + 500).map { index in
                        Message([withUnsafeBytes(of: UInt32(index).littleEndian) { Array($0) }, payload])
                    }
                    try await dealer.send(contentsOf: batch)
                }
            }
            var next: UInt32 = 0
            for try await batch in router.batches(limit: 8) {
                for message in batch {
                    let index = message.rest[0].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                    #expect(UInt32(littleEndian: index) == next && message.rest[1] == payload)
                    next += 1
                }
                if next == UInt32(count) { break }
                if next % 2_000 < 8 { try await Task.sleep(for: .milliseconds(2)) }
            }
            try await sending.value
            #expect(next == UInt32(count))
            #expect(dealer.statistics().sendFailures == 0)
            await link.shutdown()
        }
    }

    @Test(
        "A DEALER connects to a ROUTER that binds after it, holds what it sends meanwhile, and connects again to the next ROUTER on its path when the first goes away (its process started again)"
    )
    func connectsAndReconnects() async throws {
        try await within(20) {
            let client = try Transport(name: "packet-client")
            let address = endpoint("again")
            let dealer = try await client.socket(.dealer)
            try await dealer.connect(address)
            try await dealer.send(Message(Array("before anyone listened".utf8)))
            for life in 1...2 {
                let server = try Transport(name: "packet-server-\(life)")
                let router = try await server.socket(.router)
                try await router.bind(address)
                if life == 2 { try await dealer.send(Message(Array("after the first went".utf8))) }
                let heard = try await router.receive()
                #expect(heard.rest == [Array((life == 1 ? "before anyone listened" : "after the first went").utf8)])
                try await router.send(Message([heard.first, [UInt8(life)]]))
                #expect(try await dealer.receive().frames == [[UInt8(life)]])
                await server.shutdown()
            }
            #expect(dealer.statistics().sendFailures == 0)
            await client.shutdown()
        }
    }

    @Test("Endpoints and calls a packet link does not take are refused with the reason")
    func refusals() async throws {
        try await within(20) {
            let transport = try Transport(name: "packet-refusals")
            let router = try await transport.socket(.router, options: SocketOptions())
            let long = "unix:///tmp/" + String(repeating: "x", count: 200)
            let tooLong = await #expect(throws: ZMQError.self) { try await router.bind(long) }
            #expect(tooLong?.description.contains("at most") == true, "\(String(describing: tooLong))")
            // The first bind made it a packet link: libzmq's endpoints and calls are not its own.
            await #expect(throws: ZMQError.self) { try await router.bind("ipc:///tmp/not-a-packet-link") }
            try await router.bind(endpoint("first"))
            let second = await #expect(throws: ZMQError.self) { try await router.bind(endpoint("second")) }
            #expect(second?.description.contains("second") == true, "\(String(describing: second))")
            await #expect(throws: ZMQError.self) { try await router.subscribe("topic") }
            let pub = try await transport.socket(.pub)
            let refused = await #expect(throws: ZMQError.self) { try await pub.bind(endpoint("pub")) }
            #expect(refused?.description.contains("only ROUTER and DEALER") == true)
            var watched = SocketOptions()
            watched.monitor = true
            let monitored = try await transport.socket(.dealer, options: watched)
            await #expect(throws: ZMQError.self) { try await monitored.connect(endpoint("monitored")) }
            await transport.shutdown()
        }
    }

    @Test(
        "A datagram is read as its messages' frames; a count or length that runs past its end, or bytes left over, are refused, never read out of bounds"
    )
    func datagrams() throws {
        func datagram(_ numbers: [UInt32], _ tail: [UInt8] = []) -> [UInt8] {
            numbers.flatMap { withUnsafeBytes(of: $0.littleEndian) { Array($0) } } + tail
        }
        let good = datagram([2, 3], [1, 2, 3] + datagram([0]))
        #expect(try good.withUnsafeBytes { try PacketSocket.messages(in: $0) } == [[[1, 2, 3], []]])
        let two = good + datagram([1, 1], [7])
        #expect(try two.withUnsafeBytes { try PacketSocket.messages(in: $0) } == [[[1, 2, 3], []], [[7]]])
        // A DEALER's greeting: a frame count of 0, then its routing id; one whose length lies names nobody.
        #expect(datagram([0, 3], [1, 2, 3]).withUnsafeBytes { PacketSocket.greeting(in: $0) } == [1, 2, 3])
        #expect(datagram([0, 5], [1]).withUnsafeBytes { PacketSocket.greeting(in: $0) } == [])
        #expect(good.withUnsafeBytes { PacketSocket.greeting(in: $0) } == nil)
        for (bytes, why) in [
            ([UInt8](), "no frame count"), (datagram([0]), "no frame count"),
            (datagram([1_000_000]), "cannot fit"), (datagram([1, 9], [1, 2]), "runs past the end"),
            (datagram([1, 1], [1, 2]), "after the last frame"), (datagram([2, 4], [9, 9, 9, 9]), "has no length"),
        ] {
            let error = #expect(throws: ZMQError.self) { try bytes.withUnsafeBytes { try PacketSocket.messages(in: $0) } }
            #expect(error?.description.contains(why) == true, "\(String(describing: error)) should say \(why)")
        }
    }
}
