import CZeroMQ
import Foundation

/// libzmq's built-in proxy on a thread of its own, e.g. the XSUB/XPUB event bus.
///
/// `zmq_proxy_steerable` blocks, so it gets a dedicated thread that creates, uses and closes
/// its sockets (they never cross threads). ``stop()`` sends TERMINATE through a control
/// socket owned by the transport's I/O thread.
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

    /// The endpoints actually bound (ports chosen for `tcp://…:*`).
    public let frontendEndpoint: String
    public let backendEndpoint: String
    private let control: Socket
    private let finished = Locked<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    private init(frontend: String, backend: String, control: Socket) {
        frontendEndpoint = frontend
        backendEndpoint = backend
        self.control = control
    }

    /// Binds both sides and starts forwarding.
    /// - Parameter capture: an endpoint to bind a PUB socket on that sees every forwarded message.
    public static func start(
        on transport: Transport, frontend: Side, backend: Side,
        capture: String? = nil
    ) async throws -> Proxy {
        let controlEndpoint = "inproc://ribcity-proxy-control-\(transport.core.nextSocketID())"
        let context = transport.core.context
        let state = ProxyThreadState()
        let endpoints: (String, String) = try await withCheckedThrowingContinuation { started in
            let thread = Thread {
                state.run(
                    context: context, frontend: frontend, backend: backend, capture: capture,
                    control: controlEndpoint, started: started)
            }
            thread.name = "zmq-proxy"
            thread.start()
        }
        let control = try await transport.socket(.pair)
        try await control.connect(controlEndpoint)
        let proxy = Proxy(frontend: endpoints.0, backend: endpoints.1, control: control)
        state.onFinish { proxy.markFinished() }
        return proxy
    }

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
    private let finish = Locked<(done: Bool, action: (@Sendable () -> Void)?)>((false, nil))

    func onFinish(_ action: @escaping @Sendable () -> Void) {
        let runNow = finish.withLock { state -> Bool in
            if state.done { return true }
            state.action = action
            return false
        }
        if runNow { action() }
    }

    func run(
        context: ContextHandle, frontend: Proxy.Side, backend: Proxy.Side, capture: String?,
        control: String, started: CheckedContinuation<(String, String), any Error>
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
        var captureSocket: RawSocket?
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
            if let capture {
                let socket = try RawSocket(context: context.pointer, type: .pub)
                sockets.append(socket)
                _ = try socket.bind(capture)
                captureSocket = socket
            }
            controlSocket = try RawSocket(context: context.pointer, type: .pair)
            sockets.append(controlSocket)
            _ = try controlSocket.bind(control)
        } catch {
            started.resume(throwing: error)
            return
        }
        started.resume(returning: (frontEndpoint, backEndpoint))
        zmq_proxy_steerable(front.handle, back.handle, captureSocket?.handle, controlSocket.handle)
    }
}
