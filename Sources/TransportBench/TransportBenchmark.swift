import Foundation
import Histogram
import ProcessSupport

/// Measures ribcity's transport against raw libzmq on the same machine in the same run:
/// one-way throughput (PUSH → PULL) and request/reply round trips (DEALER ↔ ROUTER echo),
/// each with its two ends in two processes.
public struct TransportBenchmark: Sendable {
    /// Which implementation runs both ends of a case.
    public enum Implementation: String, Sendable, CaseIterable {
        /// Blocking loops straight on the C API.
        case raw
        /// ribcity's transport, sending in batches of 256.
        case batched
        /// ribcity's transport, one `send` call per message.
        case perMessage = "per-message"
        /// ribcity's transport with the loop running on the I/O thread's executor (batched sends
        /// in the one-way cases, one `send` per message in the round trips).
        case onIOThread = "on-io-thread"
    }

    public enum Link: String, Sendable, CaseIterable {
        case ipc, tcp

        func bindEndpoint(tag: String) -> String {
            switch self {
            case .ipc: "ipc://\(NSTemporaryDirectory())ribcity-bench-\(getpid())-\(tag)"
            case .tcp: "tcp://127.0.0.1:*"
            }
        }
    }

    public struct Throughput: Sendable {
        public let link: Link
        public let size: Int
        public let implementation: Implementation
        public let security: BenchSecurity
        public let messages: Int
        public let seconds: Double
        public var messagesPerSecond: Double { Double(messages) / seconds }
    }

    public struct RoundTrip: Sendable {
        public let link: Link
        public let implementation: Implementation
        public let security: BenchSecurity
        public let p50Microseconds: Double
        public let p99Microseconds: Double
    }

    public var messages: Int
    public var roundTrips: Int
    public var sizes: [Int]
    public var links: [Link]

    public init(
        messages: Int = 1_000_000, roundTrips: Int = 20_000, sizes: [Int] = [64, 256],
        links: [Link] = Link.allCases
    ) {
        self.messages = messages
        self.roundTrips = roundTrips
        self.sizes = sizes
        self.links = links
    }

    public func measureThroughput(
        link: Link, size: Int, implementation: Implementation, security: BenchSecurity = .plain
    ) async throws -> Throughput {
        let tag = "tp-\(implementation.rawValue)-\(size)"
        let count = messages
        let curve = security == .curve ? try BenchKeys.generate() : nil
        let peer = EndpointHandoff()
        async let nanoseconds: UInt64 = {
            switch implementation {
            case .raw:
                try await onDedicatedThread("bench-raw") {
                    try RawLoops.receive(bind: link.bindEndpoint(tag: tag), count: count, curve: curve) { peer.publish($0) }
                }
            case .batched, .perMessage, .onIOThread:
                try await TransportLoops.receive(
                    bind: link.bindEndpoint(tag: tag), count: count,
                    onIOThread: implementation == .onIOThread, curve: curve
                ) { peer.publish($0) }
            }
        }()
        let endpoint = await peer.endpoint()
        let sender = try PeerProcess(
            arguments: [
                "bench-peer", "send", "--implementation", implementation.rawValue, "--endpoint", endpoint,
                "--count", "\(count)", "--size", "\(size)",
            ] + (curve?.peerArguments ?? []))
        let elapsed = try await nanoseconds
        sender.release()
        try await sender.wait()
        return Throughput(
            link: link, size: size, implementation: implementation, security: security, messages: count,
            seconds: Double(elapsed) / 1e9)
    }

    public func measureRoundTrip(
        link: Link, implementation: Implementation, security: BenchSecurity = .plain
    ) async throws -> RoundTrip {
        let tag = "rt-\(implementation.rawValue)"
        let count = roundTrips
        let curve = security == .curve ? try BenchKeys.generate() : nil
        let total = count + count / 10
        let peer = EndpointHandoff()
        async let histogram: Histogram<UInt64> = {
            switch implementation {
            case .raw:
                try await onDedicatedThread("bench-raw") {
                    try RawLoops.ping(bind: link.bindEndpoint(tag: tag), count: count, size: 64, curve: curve) {
                        peer.publish($0)
                    }
                }
            case .batched, .perMessage, .onIOThread:
                try await TransportLoops.ping(
                    bind: link.bindEndpoint(tag: tag), count: count, size: 64,
                    onIOThread: implementation == .onIOThread, curve: curve
                ) {
                    peer.publish($0)
                }
            }
        }()
        let endpoint = await peer.endpoint()
        let echo = try PeerProcess(
            arguments: [
                "bench-peer", "echo", "--implementation", implementation.rawValue, "--endpoint", endpoint,
                "--count", "\(total)",
            ] + (curve?.peerArguments ?? []))
        let result = try await histogram
        echo.release()
        try await echo.wait()
        return RoundTrip(
            link: link, implementation: implementation, security: security,
            p50Microseconds: Double(result.valueAtPercentile(50)) / 1000,
            p99Microseconds: Double(result.valueAtPercentile(99)) / 1000)
    }

    /// The peer side of a case, run in the child process; over CURVE with the server's public
    /// key and the peer's own pair.
    public static func runPeer(
        role: String, implementation: Implementation, endpoint: String,
        count: Int, size: Int, curve: (serverKey: String, publicKey: String, secretKey: String)? = nil
    ) async throws {
        let curve = curve.map { BenchKeys.client(serverKey: $0.serverKey, publicKey: $0.publicKey, secretKey: $0.secretKey) }
        switch (role, implementation) {
        case ("send", .raw):
            try await onDedicatedThread("bench-raw") {
                try RawLoops.send(connect: endpoint, count: count, size: size, curve: curve) {
                    _ = FileHandle.standardInput.readDataToEndOfFile()
                }
            }
        case ("send", _):
            try await TransportLoops.send(
                connect: endpoint, count: count, size: size,
                batched: implementation != .perMessage,
                onIOThread: implementation == .onIOThread, curve: curve
            ) {
                try await PeerProcess.waitForRelease()
            }
        case ("echo", .raw):
            try await onDedicatedThread("bench-raw") { try RawLoops.echo(connect: endpoint, count: count, curve: curve) }
        case ("echo", _):
            try await TransportLoops.echo(
                connect: endpoint, count: count, onIOThread: implementation == .onIOThread, curve: curve)
        default:
            throw PeerProcess.Failed(description: "unknown bench-peer role \(role)")
        }
    }
}

/// Passes the bound endpoint from the measuring side to the code that starts the peer.
final class EndpointHandoff: Sendable {
    private let stream: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
    }

    func publish(_ endpoint: String) {
        continuation.yield(endpoint)
        continuation.finish()
    }

    func endpoint() async -> String {
        for await endpoint in stream { return endpoint }
        return ""
    }
}
