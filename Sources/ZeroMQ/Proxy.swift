import CZeroMQ
import Foundation

/// A proxy between two sockets on a thread of its own, e.g. the XSUB/XPUB event bus: every
/// message from the frontend goes to the backend, every message from the backend (XPUB's
/// subscriptions) to the frontend.
///
/// Unlike libzmq's `zmq_proxy`, it can judge each message from the frontend before passing it
/// on (``Admission``): over CURVE it knows which key sent it, so a bus can refuse a process that
/// publishes under another's topic. The loop blocks in `zmq_poll`, so it gets a dedicated
/// thread that creates, uses and closes its sockets (they never cross threads). ``stop()``
/// sends TERMINATE through a control socket owned by the transport's I/O thread.
public final class Proxy: Sendable {
    /// One side of the proxy: a socket type and the endpoint it binds.
    public struct Side: Sendable {
        public var type: SocketType
        public var endpoint: String
        public var options: SocketOptions

        public init(_ type: SocketType, bind endpoint: String, options: SocketOptions = SocketOptions()) {
            self.type = type
            self.endpoint = endpoint
            self.options = options
        }
    }

    /// Decides whether one message from the frontend goes on: given the name its sender's CURVE
    /// key was issued to (empty without CURVE) and its frames (valid only during the call), the
    /// reason to refuse it, or nil to forward it.
    public typealias Admission = @Sendable (_ publisher: String, _ frames: [UnsafeRawBufferPointer]) -> String?

    /// A message from the frontend the admission refused.
    public struct Refusal: Sendable, Equatable {
        public let publisher: String
        public let reason: String
    }

    /// The endpoints actually bound (ports chosen for `tcp://…:*`).
    public let frontendEndpoint: String
    public let backendEndpoint: String
    private let control: Socket
    private let state: ProxyThreadState
    private let finished = Locked<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    private init(frontend: String, backend: String, control: Socket, state: ProxyThreadState) {
        frontendEndpoint = frontend
        backendEndpoint = backend
        self.control = control
        self.state = state
    }

    /// Binds both sides and starts forwarding.
    /// - Parameter admit: judges every message from the frontend; nil forwards them all.
    public static func start(
        on transport: Transport, frontend: Side, backend: Side, admit: Admission? = nil
    ) async throws -> Proxy {
        let controlEndpoint = "inproc://ribcity-proxy-control-\(transport.core.nextSocketID())"
        let context = transport.core.context
        let state = ProxyThreadState(admit: admit)
        let endpoints: (String, String) = try await withCheckedThrowingContinuation { started in
            let thread = Thread {
                state.run(
                    context: context, frontend: frontend, backend: backend, control: controlEndpoint, started: started)
            }
            thread.name = "zmq-proxy"
            thread.start()
        }
        let control = try await transport.socket(.pair)
        try await control.connect(controlEndpoint)
        let proxy = Proxy(frontend: endpoints.0, backend: endpoints.1, control: control, state: state)
        state.onFinish { proxy.markFinished() }
        return proxy
    }

    /// How many messages from the frontend were refused, and the first few refusals (the
    /// rest are only counted).
    public var refusals: (count: Int, first: [Refusal]) { state.refusals }

    /// Stops forwarding, closes the proxy's sockets and waits for its thread to end. Idempotent.
    public func stop() async {
        try? await control.sendConfirmed(Message(Array("TERMINATE".utf8)))
        await withCheckedContinuation { continuation in
            let done = finished.withLock { state -> Bool in
                if state.done { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        await control.close()
    }

    private func markFinished() {
        let waiters = finished.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.done = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// The proxy thread's side: sockets live and die on that thread.
private final class ProxyThreadState: Sendable {
    /// Refusals kept with their reasons; later ones are only counted.
    static let keptRefusals = 20
    /// Messages taken from one side before the other gets its turn.
    static let turn = 1000

    private let admit: Proxy.Admission?
    private let finish = Locked<(done: Bool, action: (@Sendable () -> Void)?)>((false, nil))
    private let refused = Locked<(count: Int, first: [Proxy.Refusal])>((0, []))

    init(admit: Proxy.Admission?) {
        self.admit = admit
    }

    var refusals: (count: Int, first: [Proxy.Refusal]) { refused.withLock { $0 } }

    func onFinish(_ action: @escaping @Sendable () -> Void) {
        let runNow = finish.withLock { state -> Bool in
            if state.done { return true }
            state.action = action
            return false
        }
        if runNow { action() }
    }

    func run(
        context: ContextHandle, frontend: Proxy.Side, backend: Proxy.Side, control: String,
        started: CheckedContinuation<(String, String), any Error>
    ) {
        var sockets: [RawSocket] = []
        defer {
            sockets.forEach { $0.close() }
            let action = finish.withLock { state -> (@Sendable () -> Void)? in
                state.done = true
                return state.action
            }
            action?()
        }
        let front: RawSocket, back: RawSocket, controlSocket: RawSocket
        let frontEndpoint: String, backEndpoint: String
        do {
            front = try RawSocket(context: context.pointer, type: frontend.type)
            sockets.append(front)
            try front.apply(frontend.options)
            frontEndpoint = try front.bind(frontend.endpoint)
            back = try RawSocket(context: context.pointer, type: backend.type)
            sockets.append(back)
            try back.apply(backend.options)
            backEndpoint = try back.bind(backend.endpoint)
            controlSocket = try RawSocket(context: context.pointer, type: .pair)
            sockets.append(controlSocket)
            _ = try controlSocket.bind(control)
        } catch {
            started.resume(throwing: error)
            return
        }
        started.resume(returning: (frontEndpoint, backEndpoint))
        var parts = MessageParts()
        var items = [
            zmq_pollitem_t(socket: front.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0),
            zmq_pollitem_t(socket: back.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0),
            zmq_pollitem_t(socket: controlSocket.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0),
        ]
        while true {
            if zmq_poll(&items, Int32(items.count), -1) < 0 {
                if zmq_errno() == EINTR { continue }
                return
            }
            if items[2].revents != 0 { return }
            if items[0].revents != 0, !forward(from: front, to: back, parts: &parts, judged: admit != nil) { return }
            if items[1].revents != 0, !forward(from: back, to: front, parts: &parts, judged: false) { return }
        }
    }

    /// Moves up to a turn's worth of waiting messages from `source` to `destination`, judging
    /// each if `judged`. Returns false when the sockets are no longer usable (context ended).
    private func forward(
        from source: RawSocket, to destination: RawSocket, parts: inout MessageParts, judged: Bool
    )
        -> Bool
    {
        for _ in 0..<Self.turn {
            switch parts.receive(from: source.handle) {
            case .none: return true
            case .failed: return false
            case .received:
                if judged, let admit, let publisher = parts.userID, let reason = admit(publisher, parts.frames) {
                    refused.withLock { state in
                        state.count += 1
                        if state.first.count < Self.keptRefusals {
                            state.first.append(Proxy.Refusal(publisher: publisher, reason: reason))
                        }
                    }
                    parts.discard()
                } else if !parts.send(to: destination.handle) {
                    return false
                }
            }
        }
        return true
    }
}

/// The frames of one message as libzmq holds them, moved from socket to socket without copies.
private struct MessageParts: ~Copyable {
    enum Outcome { case none, received, failed }

    private var storage: UnsafeMutablePointer<zmq_msg_t>
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 8
        storage = .allocate(capacity: capacity)
    }

    deinit {
        for index in 0..<count { zmq_msg_close(storage + index) }
        storage.deallocate()
    }

    /// Takes one whole message without blocking: `.none` if nothing is waiting.
    mutating func receive(from socket: UnsafeMutableRawPointer) -> Outcome {
        discard()
        repeat {
            if count == capacity { grow() }
            let part = storage + count
            zmq_msg_init(part)
            if zmq_msg_recv(part, socket, ZMQ_DONTWAIT) < 0 {
                let error = zmq_errno()
                zmq_msg_close(part)
                // libzmq delivers the parts of a message together: only the first can be missing.
                if count == 0 && error == EAGAIN { return .none }
                return .failed
            }
            count += 1
        } while zmq_msg_more(storage + count - 1) != 0
        return .received
    }

    /// The name the sender's CURVE key was issued to (ZAP's User-Id), or nil without CURVE.
    var userID: String? {
        guard count > 0, let name = zmq_msg_gets(storage + count - 1, "User-Id") else { return nil }
        return String(cString: name)
    }

    /// The frames' bytes, valid until the next receive, send or discard.
    var frames: [UnsafeRawBufferPointer] {
        (0..<count).map { UnsafeRawBufferPointer(start: zmq_msg_data(storage + $0), count: zmq_msg_size(storage + $0)) }
    }

    /// Sends the message on (blocking while `socket` is full, as zmq_proxy does). False on failure.
    mutating func send(to socket: UnsafeMutableRawPointer) -> Bool {
        defer { discard() }
        for index in 0..<count {
            let flags = index < count - 1 ? ZMQ_SNDMORE : 0
            while zmq_msg_send(storage + index, socket, flags) < 0 {
                if zmq_errno() != EINTR { return false }
            }
        }
        return true
    }

    mutating func discard() {
        for index in 0..<count { zmq_msg_close(storage + index) }
        count = 0
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: capacity * 2)
        // libzmq's messages are moved with zmq_msg_move, never by copying their bytes.
        for index in 0..<count {
            zmq_msg_init(larger + index)
            zmq_msg_move(larger + index, storage + index)
            zmq_msg_close(storage + index)
        }
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}
