import Faults
import SimulatedTime
import Wire
import ZeroMQ

/// A session with dispatch over a DEALER, as rider and driver hosts hold one: Hello and Welcome,
/// requests answered by reply (matched by `in_reply_to`), and the ZeroMQ guide's *Lazy Pirate*
/// for requests that go unanswered — wait a timeout, drop the socket (and whatever it still
/// queues), open a new one, say Hello again, and resend with the **same message id**, so dispatch
/// answers a request it already did instead of doing it twice. Messages that are not replies
/// (offers, legs, trip updates) come out of ``incoming``.
public actor SessionClient {
    /// The I/O thread of the session's transport, which this actor runs on (and its host may).
    public nonisolated var executor: IOExecutor { transport.executor }
    public nonisolated var unownedExecutor: UnownedSerialExecutor { transport.executor.asUnownedSerialExecutor() }
    public struct Settings: Sendable {
        /// How long to wait for a reply before trying again.
        public var timeout: Duration = .seconds(1)
        /// Attempts per request, the first included.
        public var attempts = 3
        /// Simulated seconds per wall second: with Welcome's time, the session's clock, which
        /// stamps every envelope sent (so that dispatch sees how late messages reach it).
        public var speed: Double = 1
        /// Faults injected into what this session sends (stress mode); none by default.
        public var faults = MessageFaults()
        public init() {}
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// No reply to the request with this message id after every attempt.
        case unanswered(messageID: String, attempts: Int)
        /// Dispatch answered, but not with what was asked for (its error, or another message).
        case refused(String)
        case closed

        public var description: String {
            switch self {
            case .unanswered(let id, let attempts): "no reply to \(id) after \(attempts) attempts"
            case .refused(let reason): "refused: \(reason)"
            case .closed: "the session is closed"
            }
        }
    }

    public let endpoint: String
    public let hello: Hello
    public let settings: Settings
    /// Everything dispatch sends that is not a reply to a request.
    public nonisolated let incoming: AsyncStream<Envelope>
    /// How many times the socket was dropped and opened again.
    public var reconnects: Int { line.reconnects }
    public private(set) var welcome: Welcome?
    /// Simulated time, from the first Welcome on.
    public private(set) var clock: SessionClock?

    private let transport: Transport
    private var stamper: SequenceStamper
    private var socket: Socket?
    private var reader: Task<Void, Never>?
    private var line = SessionLine()
    private var replies = ReplyBook()
    private let inbox: AsyncStream<Envelope>.Continuation
    /// The fault layer (stress mode), with what it did so far.
    public private(set) var faults: FaultInjector
    private var opening: Task<Socket, any Error>?
    private var reopening: Task<Void, any Error>?
    /// The Hello on its way after dispatch forgot the session: shared by everyone who found out.
    private var greeting: Task<Void, any Error>?
    /// The one task that gives up on requests whose time ran out, while any is timed.
    private var timeouts: Task<Void, Never>?
    /// How many times dispatch forgot this session and was greeted again on the same line.
    public var rehellos: Int { line.rehellos }

    public init(transport: Transport, endpoint: String, hello: Hello, settings: Settings = Settings()) {
        self.transport = transport
        self.endpoint = endpoint
        // The token proves the session is this one when it says Hello again on a new socket.
        var hello = hello
        if hello.sessionToken.isEmpty { hello.sessionToken = SessionToken.draw() }
        self.hello = hello
        self.settings = settings
        stamper = SequenceStamper(sender: hello.sessionID)
        faults = FaultInjector(settings.faults)
        (incoming, inbox) = AsyncStream.makeStream(of: Envelope.self)
    }

    /// Opens the session: Hello until Welcome (with retries).
    @discardableResult
    public func connect() async throws -> Welcome {
        let reply = try await request(.hello(hello))
        guard case .welcome(let welcome)? = reply.body else {
            throw Failure.refused(reply.error.reason.isEmpty ? "answered Hello with \(reply.bodyName)" : reply.error.reason)
        }
        self.welcome = welcome
        if clock == nil { clock = SessionClock(origin: welcome.simTime.seconds, speed: settings.speed) }
        return welcome
    }

    /// Sends a request and waits for its reply, retrying the Lazy Pirate way.
    public func request(_ body: Envelope.OneOf_Body) async throws -> Envelope {
        let stamp = stamper.next()
        for attempt in 1...settings.attempts {
            guard !line.closed else { throw Failure.closed }
            // Reopening loses whatever the old socket still held for the other requests too.
            if line.retry(attempt: attempt, now: .now, timeout: settings.timeout) == .reopen { try await reopen() }
            replies.expect(stamp.messageID)
            let welcomes = line.welcomes
            try await transmit(Message([WireCodec.encode(Envelope(body, from: stamp, simTimeMs: simTimeMs))]))
            timeReply(to: stamp.messageID)
            guard let reply = try await awaitReply(to: stamp.messageID) else { continue }
            if Self.isUnknownSession(reply), !isHello(body) {
                // Dispatch no longer knows this session (it came back from its journal on a new
                // socket): Hello again on this line (one Hello for every request that found out),
                // then the request again, same message id.
                if line.needsHello(sentAfter: welcomes) { try await greet() }
                continue
            }
            return reply
        }
        throw Failure.unanswered(messageID: stamp.messageID, attempts: settings.attempts)
    }

    /// Sends a message that needs no reply (a heartbeat, a location, an answer to an offer).
    public func send(_ body: Envelope.OneOf_Body) async throws {
        guard !line.closed else { throw Failure.closed }
        try await transmit(Message([WireCodec.encode(Envelope(body, from: stamper.next(), simTimeMs: simTimeMs))]))
    }

    /// Sends on the current socket, through the fault layer.
    private func transmit(_ message: Message) async throws {
        let fate = faults.next()
        guard fate.copies > 0 || fate.delay != nil else { return }
        let socket = try await currentSocket()
        if let wait = fate.delay {
            Task {
                try? await Task.sleep(for: wait)
                try? await socket.send(message)
            }
        }
        for _ in 0..<fate.copies { try await socket.send(message) }
    }

    /// Says goodbye and closes the socket.
    public func close(reason: String = "done") async {
        guard !line.closed else { return }
        try? await send(.goodbye(Goodbye.with { $0.reason = reason }))
        _ = line.close()
        reader?.cancel()
        await socket?.close()
        socket = nil
        inbox.finish()
        timeouts?.cancel()
        for waiter in replies.closeAll() { waiter.resume(throwing: Failure.closed) }
    }

    // MARK: Internals

    /// Now on the session's clock, in whole milliseconds (0 before the first Welcome).
    private var simTimeMs: Int64 { clock.map { SimTime(seconds: $0.now()).wireMilliseconds } ?? 0 }

    /// The socket, opened if there is none. Callers that come while one is being opened get that
    /// one: two sockets opened at once would leave one connected with nobody reading it, and
    /// dispatch, sending to it, would find it full.
    private func currentSocket() async throws -> Socket {
        if let socket { return socket }
        if let opening { return try await opening.value }
        let task = Task { try await self.open() }
        opening = task
        defer { opening = nil }
        return try await task.value
    }

    private func open() async throws -> Socket {
        let opened = try await transport.socket(.dealer)
        try await opened.connect(endpoint)
        socket = opened
        let generation = line.opened()
        reader = Task(executorPreference: transport.executor) { [weak self] in
            do {
                for try await batch in opened.batches() { await self?.deliver(batch, generation: generation) }
            } catch {}
        }
        return opened
    }

    /// Drops the socket and whatever it queues, opens another, and says Hello again on it (a new
    /// socket is a new peer to dispatch's ROUTER; the same session id resumes the session).
    /// Requests that time out together share one reopening.
    private func reopen() async throws {
        if let reopening { return try await reopening.value }
        let task = Task {
            line.reopening()
            reader?.cancel()
            let old = socket
            socket = nil
            await old?.close()
            try await sayHello(on: currentSocket())
        }
        reopening = task
        defer { reopening = nil }
        try await task.value
    }

    /// Says Hello on `socket` and waits (one timeout at most) for the Welcome.
    private func sayHello(on socket: Socket) async throws {
        let stamp = stamper.next()
        replies.expect(stamp.messageID)
        try await socket.send(Message([WireCodec.encode(Envelope(.hello(hello), from: stamp, simTimeMs: simTimeMs))]))
        timeReply(to: stamp.messageID)
        if case .welcome? = try await awaitReply(to: stamp.messageID)?.body { line.welcomed() }
    }

    /// Says Hello on the current line; whoever comes while one is on its way waits for that one.
    private func greet() async throws {
        if let greeting { return try await greeting.value }
        let task = Task { try await self.sayHello(on: self.currentSocket()) }
        greeting = task
        defer { greeting = nil }
        try await task.value
    }

    /// Dispatch answered something sent outside a request (a heartbeat, a location) with "unknown
    /// session": it restarted. Hello again at once, so that what it has for this session's riders
    /// and drivers comes back without waiting for their next request. One Hello at a time.
    private func greetAgain() async {
        guard line.beginGreeting() else { return }
        defer { line.endGreeting() }
        try? await greet()
    }

    private func isHello(_ body: Envelope.OneOf_Body) -> Bool {
        if case .hello = body { return true }
        return false
    }

    private static func isUnknownSession(_ envelope: Envelope) -> Bool {
        if case .error(let error)? = envelope.body, error.code == .unknownSession { return true }
        return false
    }

    private func deliver(_ batch: [Message], generation: Int) {
        guard line.delivered(generation: generation, at: .now) else { return }
        for message in batch {
            // Dispatch never sends what a DEALER cannot decode; anything else is dropped.
            guard let envelope = try? Frames.direct(message.frames) else { continue }
            if Self.isUnknownSession(envelope), !replies.isExpected(envelope.inReplyTo) {
                Task { await self.greetAgain() }
                continue
            }
            switch replies.deliver(envelope) {
            case .resume(let waiter, let reply): waiter.resume(returning: reply)
            case .incoming(let push): inbox.yield(push)
            case .kept, .late: break
            }
        }
    }

    /// The reply to `messageID`, or `nil` once its time ran out (``timeReply(to:)``).
    private func awaitReply(to messageID: String) async throws -> Envelope? {
        switch replies.claim(messageID) {
        case .arrived(let envelope): return envelope
        case .abandoned: return nil
        case .pending:
            return try await withCallerIsolatedContinuation {
                replies.wait(for: messageID, $0)
            } onCancel: {
                Task { await self.abandon(messageID) }
            }
        }
    }

    /// The request `messageID` was sent: unanswered after the timeout, it is given up on. One
    /// task on the I/O thread sleeps until the earliest such deadline — a request costs no task
    /// and no timer of its own, and a reply wakes no other thread.
    private func timeReply(to messageID: String) {
        replies.time(messageID, until: .now + settings.timeout)
        guard timeouts == nil else { return }
        timeouts = Task(executorPreference: transport.executor) { await self.giveUpOnLateReplies() }
    }

    private func giveUpOnLateReplies() async {
        defer { timeouts = nil }
        while let deadline = replies.earliestDeadline {
            do { try await transport.executor.sleep(until: deadline) } catch { return }
            for waiter in replies.expire(now: .now) { waiter.resume(returning: nil) }
        }
    }

    /// Gives up on a reply: a waiting receiver is released, a late reply will be ignored.
    private func abandon(_ messageID: String) {
        replies.abandon(messageID)?.resume(throwing: CancellationError())
    }
}
