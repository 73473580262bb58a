/// A ZeroMQ socket owned by a ``Transport``'s I/O thread, used from any task.
///
/// Operations are forwarded to the I/O thread; the libzmq socket itself never leaves it.
/// Sends are queued (bounded: `send` suspends while the queue is full) and received messages
/// arrive in batches through ``batches`` or one at a time through ``receive()``.
public final class Socket: Sendable {
    /// The socket's pattern.
    public var type: SocketType { core.type }

    let core: SocketCore
    private let loop: LoopCore
    /// The I/O thread that owns this socket, as an executor: an actor that handles the socket's
    /// messages runs best here (see ``IOExecutor``).
    public let executor: IOExecutor

    init(core: SocketCore, loop: LoopCore, executor: IOExecutor) {
        self.core = core
        self.loop = loop
        self.executor = executor
    }

    /// Binds to an endpoint (`tcp://127.0.0.1:*` picks a free port; `unix://PATH` makes a ROUTER
    /// a Unix packet link, see ``perform(packetsFor:_:)``).
    /// - Returns: the endpoint actually bound, with the chosen port.
    @discardableResult
    public func bind(_ endpoint: String) async throws -> String {
        let curve = loop.security.withLock { $0 }?.binding(endpoint)
        return try await perform(packetsFor: endpoint) { raw in
            if let curve { try raw.useCurve(curve) }
            return try raw.bind(endpoint)
        } ?? endpoint
    }

    /// Connects to an endpoint; libzmq completes the connection (and reconnects) in the background
    /// (`unix://PATH` makes a DEALER a Unix packet link, which does the same itself).
    public func connect(_ endpoint: String) async throws {
        let curve = loop.security.withLock { $0 }?.connecting(endpoint)
        _ = try await perform(packetsFor: endpoint) { raw in
            if let curve { try raw.useCurve(curve) }
            try raw.connect(endpoint)
            return nil
        }
    }

    /// Drops a connection made with ``connect(_:)``.
    public func disconnect(_ endpoint: String) async throws {
        _ = try await perform {
            try $0.disconnect(endpoint); return nil
        }
    }

    /// Stops listening on an endpoint made with ``bind(_:)``.
    public func unbind(_ endpoint: String) async throws {
        _ = try await perform {
            try $0.unbind(endpoint); return nil
        }
    }

    /// Adds a topic prefix (SUB sockets).
    public func subscribe(_ prefix: String) async throws {
        let bytes = Array(prefix.utf8)
        _ = try await perform {
            try $0.subscribe(bytes); return nil
        }
    }

    /// Removes a topic prefix (SUB sockets).
    public func unsubscribe(_ prefix: String) async throws {
        let bytes = Array(prefix.utf8)
        _ = try await perform {
            try $0.unsubscribe(bytes); return nil
        }
    }

    /// Queues a message for sending, suspending while the outbound queue is full.
    ///
    /// A message libzmq later refuses is counted in ``statistics()`` and reported on ``events``.
    public func send(_ message: Message, isolation: isolated (any Actor)? = #isolation) async throws {
        try await core.outbound.enqueue([message], operation: "send on \(core.type)")
    }

    /// Queues many messages at once: the fast path, one hand-off for the whole batch.
    public func send(contentsOf messages: [Message], isolation: isolated (any Actor)? = #isolation) async throws {
        try await core.outbound.enqueue(messages, operation: "send on \(core.type)")
    }

    /// Sends a message and waits until libzmq has accepted it.
    /// - Throws: libzmq's error, e.g. ``ZMQError/isHostUnreachable`` for an unknown ROUTER peer.
    public func sendConfirmed(_ message: Message, isolation: isolated (any Actor)? = #isolation) async throws {
        try await core.outbound.enqueueConfirmed(message, operation: "send on \(core.type)")
    }

    /// Leaves what this socket receives unread (in the kernel, or in libzmq) until `gate` next
    /// receives something; then this socket is read first, in the same turn of the I/O thread, and
    /// its messages are handed out before the gate's. A process that knows it has nothing to do
    /// with its messages until the gate speaks (a host in virtual time, between its window report
    /// and the next opening) is then woken once instead of once for each. The input is read again
    /// after `limit` whatever the gate does (what comes outside the pattern, such as a watcher's
    /// request, waits no longer), and at once when a send on the socket has to wait for it to
    /// become writable.
    ///
    /// With `readingFirst`, what is waiting when this is called is read in the I/O thread's next
    /// turn all the same, and only what comes after is held: a process that reports its window
    /// after its peers takes in what they sent while the next opening is on its way, instead of
    /// after it.
    /// - Precondition: both sockets belong to the same ``Transport``.
    public func holdInput(until gate: Socket, atMost limit: Duration = .milliseconds(50), readingFirst: Bool = false) {
        precondition(gate.loop === loop, "a socket's input is held only until a socket of the same transport receives")
        core.heldAtMostMs.store(Int(limit / .milliseconds(1)), ordering: .relaxed)
        core.heldReadsFirst.store(readingFirst, ordering: .relaxed)
        core.heldUntil.store(gate.core.id, ordering: .releasing)
        core.heldAsks.add(1, ordering: .releasing)
    }

    /// The next received message.
    /// - Throws: ``ZMQError/closed(_:)`` once the socket is closed and drained.
    public func receive(isolation: isolated (any Actor)? = #isolation) async throws -> Message {
        guard let message = try await core.inbound.take(limit: 1)?.first else {
            throw ZMQError.closed("receive on \(core.type)")
        }
        return message
    }

    /// Received messages in batches as the I/O thread read them (at most `limit` each), until the socket closes.
    public func batches(limit: Int = 1024) -> MessageBatches {
        MessageBatches(buffer: core.inbound, limit: limit)
    }

    /// Socket monitor events (when ``SocketOptions/monitor`` is set) and failed sends.
    /// One consumer; the newest 1024 are kept if it falls behind.
    public var events: AsyncStream<SocketEvent> { core.events }

    /// Traffic so far. The I/O thread counts a pass of sends after it, so a peer can already hold
    /// a message that ``SocketStatistics/sent`` does not count yet (a failure is counted before
    /// its event or its confirmation's error); after ``close()`` or the transport's shutdown the
    /// counts are final.
    public func statistics() -> SocketStatistics { core.statistics }

    /// Stops receiving, lets queued sends drain within LINGER, then closes. Idempotent.
    public func close() async {
        await withCheckedContinuation { continuation in
            if !loop.submit(.close(core.id, continuation)) { continuation.resume() }
        }
    }

    /// Runs `operation` on the I/O thread. A socket whose first bind or connect is to a
    /// `unix://` endpoint (`packetsFor`) is a Unix packet link from then on (`PacketSocket`: ROUTER
    /// and DEALER only, one machine, no CURVE, no monitor; libzmq's options do not apply), with
    /// the same calls as a libzmq socket.
    private func perform(
        packetsFor endpoint: String? = nil, _ operation: @escaping @Sendable (any LoopSocket) throws -> String?
    ) async throws -> String? {
        let packets = endpoint?.hasPrefix(PacketSocket.scheme) ?? false
        return try await withCheckedThrowingContinuation { continuation in
            if !loop.submit(.perform(core.id, packets: packets, operation, continuation)) {
                continuation.resume(throwing: ZMQError.closed("socket \(core.id)"))
            }
        }
    }

}

/// The batches of messages a socket receives, as an async sequence that ends when the socket closes.
public struct MessageBatches: AsyncSequence, Sendable {
    public typealias Element = [Message]
    let buffer: InboundBuffer
    let limit: Int

    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: InboundBuffer
        let limit: Int

        public mutating func next() async throws -> [Message]? {
            try await next(isolation: nil)
        }

        /// Waits on the caller's executor: an actor's loop over the batches stays on its thread.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [Message]? {
            try await buffer.take(limit: limit)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(buffer: buffer, limit: limit)
    }
}
