import Histogram
import ZeroMQ

/// The same four loops as ``RawLoops``, through ribcity's transport.
enum TransportLoops {
    static let batchSize = 256

    static func receive(
        bind endpoint: String, count: Int, onIOThread: Bool, curve: BenchKeys?,
        ready: @Sendable (String) -> Void
    ) async throws -> UInt64 {
        let transport = try Transport(name: "bench-io")
        var options = SocketOptions()
        try await curve?.serve(transport, options: &options)
        let pull = try await transport.socket(.pull, options: options)
        ready(try await pull.bind(endpoint))
        let loop = { @Sendable () async throws -> UInt64 in
            var received = 0
            var start: UInt64 = 0
            for try await batch in pull.batches() {
                if received == 0 { start = monotonicNanoseconds() }
                received += batch.count
                if received >= count { break }
            }
            return monotonicNanoseconds() - start
        }
        let elapsed = try await run(loop, on: transport, onIOThread: onIOThread)
        await transport.shutdown()
        return elapsed
    }

    /// Sends in batches (`batched`) or one `send` per message, then waits for `done` before closing.
    static func send(
        connect endpoint: String, count: Int, size: Int, batched: Bool, onIOThread: Bool, curve: BenchKeys?,
        done: () async throws -> Void
    ) async throws {
        let transport = try Transport(name: "bench-io")
        var options = SocketOptions()
        options.linger = .seconds(-1)
        curve?.connect(options: &options)
        let push = try await transport.socket(.push, options: options)
        try await push.connect(endpoint)
        // A fresh message per send, as real senders make (sharing one buffer between threads
        // would measure refcount contention, not the transport).
        let payload = [UInt8](repeating: 0x5A, count: size)
        let loop = { @Sendable () async throws in
            if batched {
                var sent = 0
                while sent < count {
                    let next = min(batchSize, count - sent)
                    try await push.send(
                        contentsOf: (0..<next).map { _ in Message(payload.withUnsafeBufferPointer { Array($0) }) })
                    sent += next
                }
            } else {
                for _ in 0..<count { try await push.send(Message(payload.withUnsafeBufferPointer { Array($0) })) }
            }
        }
        try await run(loop, on: transport, onIOThread: onIOThread)
        try await done()
        await transport.shutdown()
    }

    static func ping(
        bind endpoint: String, count: Int, size: Int, onIOThread: Bool, curve: BenchKeys?,
        ready: @Sendable (String) -> Void
    ) async throws -> Histogram<UInt64> {
        let transport = try Transport(name: "bench-io")
        var options = SocketOptions()
        options.linger = .zero
        try await curve?.serve(transport, options: &options)
        let dealer = try await transport.socket(.dealer, options: options)
        ready(try await dealer.bind(endpoint))
        let message = Message([UInt8](repeating: 0x5A, count: size))
        let loop = { @Sendable () async throws -> Histogram<UInt64> in
            var histogram = Histogram<UInt64>(highestTrackableValue: 10_000_000_000)
            for index in 0..<(count + count / 10) {
                let start = monotonicNanoseconds()
                try await dealer.send(message)
                _ = try await dealer.receive()
                if index >= count / 10 { _ = histogram.record(monotonicNanoseconds() - start) }
            }
            return histogram
        }
        let histogram = try await run(loop, on: transport, onIOThread: onIOThread)
        await transport.shutdown()
        return histogram
    }

    static func echo(connect endpoint: String, count: Int, onIOThread: Bool, curve: BenchKeys?) async throws {
        let transport = try Transport(name: "bench-io")
        var options = SocketOptions()
        curve?.connect(options: &options)
        let router = try await transport.socket(.router, options: options)
        try await router.connect(endpoint)
        let loop = { @Sendable () async throws in
            var echoed = 0
            for try await batch in router.batches() {
                try await router.send(contentsOf: batch)
                echoed += batch.count
                if echoed >= count { break }
            }
        }
        try await run(loop, on: transport, onIOThread: onIOThread)
        await transport.shutdown()
    }

    /// Runs a benchmark loop on the transport's I/O thread (its task executor) or as a plain task.
    private static func run<T: Sendable>(
        _ loop: @Sendable () async throws -> T, on transport: Transport,
        onIOThread: Bool
    ) async throws -> T {
        onIOThread ? try await withTaskExecutorPreference(transport.executor, operation: loop) : try await loop()
    }
}
