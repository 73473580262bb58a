import CZeroMQ
import Glibc

/// A libzmq socket used from exactly one thread: the I/O thread that created it.
///
/// Not `Sendable` on purpose: libzmq sockets are not thread-safe, so this type never
/// leaves the thread that owns it. Every call is non-blocking.
final class RawSocket {
    let handle: UnsafeMutableRawPointer
    let type: SocketType
    /// Reused for every receive so that a message costs one copy and no libzmq allocation churn.
    private let scratch: UnsafeMutablePointer<zmq_msg_t>
    private var isClosed = false
    /// Whether it has bound an endpoint (a ROUTER that then binds a packet link serves both).
    private(set) var isBound = false
    /// A CURVE server: each message is tagged with its sender's ZAP User-Id.
    private var readsUserID = false

    init(context: UnsafeMutableRawPointer, type: SocketType) throws(ZMQError) {
        guard let handle = zmq_socket(context, type.rawValue) else {
            throw ZMQError.last("create \(type) socket")
        }
        self.handle = handle
        self.type = type
        scratch = .allocate(capacity: 1)
        zmq_msg_init(scratch)
    }

    deinit {
        close()
        zmq_msg_close(scratch)
        scratch.deallocate()
    }

    func apply(_ options: SocketOptions) throws(ZMQError) {
        try set(ZMQ_LINGER, options.linger < .zero ? -1 : options.linger.zmqMilliseconds, "LINGER")
        if let value = options.sendHighWaterMark { try set(ZMQ_SNDHWM, value, "SNDHWM") }
        if let value = options.receiveHighWaterMark { try set(ZMQ_RCVHWM, value, "RCVHWM") }
        if let value = options.routerMandatory { try set(ZMQ_ROUTER_MANDATORY, value ? 1 : 0, "ROUTER_MANDATORY") }
        if let value = options.immediate { try set(ZMQ_IMMEDIATE, value ? 1 : 0, "IMMEDIATE") }
        if let value = options.reconnectInterval { try set(ZMQ_RECONNECT_IVL, value.zmqMilliseconds, "RECONNECT_IVL") }
        if let value = options.reconnectIntervalMax {
            try set(ZMQ_RECONNECT_IVL_MAX, value.zmqMilliseconds, "RECONNECT_IVL_MAX")
        }
        if let value = options.heartbeatInterval { try set(ZMQ_HEARTBEAT_IVL, value.zmqMilliseconds, "HEARTBEAT_IVL") }
        if let value = options.heartbeatTimeout {
            try set(ZMQ_HEARTBEAT_TIMEOUT, value.zmqMilliseconds, "HEARTBEAT_TIMEOUT")
        }
        if let value = options.heartbeatTTL { try set(ZMQ_HEARTBEAT_TTL, value.zmqMilliseconds, "HEARTBEAT_TTL") }
        if let value = options.xpubVerbose { try set(ZMQ_XPUB_VERBOSE, value ? 1 : 0, "XPUB_VERBOSE") }
        if let value = options.routingID { try setBytes(ZMQ_ROUTING_ID, value, "ROUTING_ID") }
        if let value = options.maximumMessageBytes {
            var limit = value
            guard zmq_setsockopt(handle, ZMQ_MAXMSGSIZE, &limit, MemoryLayout<Int64>.size) == 0 else {
                throw ZMQError.last("set MAXMSGSIZE on \(type)")
            }
        }
        if let curve = options.curve { try useCurve(curve) }
        for prefix in options.subscriptions { try subscribe(prefix) }
    }

    /// Makes later binds (a server) or connects (a client) of this socket use CURVE.
    func useCurve(_ curve: CurveRole) throws(ZMQError) {
        switch curve {
        case .server(let keys):
            guard CurveKeyPair.isAvailable else { throw ZMQError.unsupported("CURVE on \(type): this libzmq has no CURVE") }
            try set(ZMQ_CURVE_SERVER, 1, "CURVE_SERVER")
            try setBytes(ZMQ_CURVE_SECRETKEY, Array(keys.secretKey.utf8), "CURVE_SECRETKEY")
            try setBytes(ZMQ_ZAP_DOMAIN, Array(Authenticator.domain.utf8), "ZAP_DOMAIN")
            readsUserID = true
        case .client(let keys, let serverKey):
            guard CurveKeyPair.isAvailable else { throw ZMQError.unsupported("CURVE on \(type): this libzmq has no CURVE") }
            try setBytes(ZMQ_CURVE_SERVERKEY, Array(serverKey.utf8), "CURVE_SERVERKEY")
            try setBytes(ZMQ_CURVE_PUBLICKEY, Array(keys.publicKey.utf8), "CURVE_PUBLICKEY")
            try setBytes(ZMQ_CURVE_SECRETKEY, Array(keys.secretKey.utf8), "CURVE_SECRETKEY")
        }
    }

    func subscribe(_ prefix: [UInt8]) throws(ZMQError) {
        try setBytes(ZMQ_SUBSCRIBE, prefix, "SUBSCRIBE")
    }

    func unsubscribe(_ prefix: [UInt8]) throws(ZMQError) {
        try setBytes(ZMQ_UNSUBSCRIBE, prefix, "UNSUBSCRIBE")
    }

    /// Binds and returns the endpoint actually bound (the port chosen for `tcp://host:*`).
    func bind(_ endpoint: String) throws(ZMQError) -> String {
        guard zmq_bind(handle, endpoint) == 0 else { throw ZMQError.last("bind \(endpoint)") }
        isBound = true
        return lastEndpoint ?? endpoint
    }

    func connect(_ endpoint: String) throws(ZMQError) {
        guard zmq_connect(handle, endpoint) == 0 else { throw ZMQError.last("connect \(endpoint)") }
    }

    func disconnect(_ endpoint: String) throws(ZMQError) {
        guard zmq_disconnect(handle, endpoint) == 0 else { throw ZMQError.last("disconnect \(endpoint)") }
    }

    func unbind(_ endpoint: String) throws(ZMQError) {
        guard zmq_unbind(handle, endpoint) == 0 else { throw ZMQError.last("unbind \(endpoint)") }
    }

    var lastEndpoint: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        var size = buffer.count
        guard zmq_getsockopt(handle, ZMQ_LAST_ENDPOINT, &buffer, &size) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Hands libzmq whole messages from `messages[start...]` without blocking, until `limit` have
    /// gone, the batch ends, or one is refused or fails. The messages are read in place, through a
    /// span: read out of the array, or through a pointer, each frame was retained and released
    /// around its `zmq_send` (a C call the compiler cannot prove leaves it alone), a sixth of the
    /// sending I/O thread's time (PERFORMANCE.md).
    func trySend(_ messages: [Message], from start: Int, limit: Int) -> SendRun {
        let span = messages.span
        var run = SendRun()
        var index = start
        while index < span.count, run.sent < limit {
            do {
                guard try trySend(span, at: index) else {
                    run.stop = .full
                    return run
                }
            } catch {
                run.stop = .failed(error)
                return run
            }
            run.sent += 1
            index += 1
        }
        return run
    }

    /// Hands the message at `position` whole to libzmq without blocking.
    /// - Returns: `false` if libzmq's queue is full (nothing was sent).
    private func trySend(_ messages: Span<Message>, at position: Int) throws(ZMQError) -> Bool {
        // The stored field, not `isShared`: a method called on the element would copy the message.
        if messages[position].shared != nil { return try trySendShared(messages[position]) }
        // The owned frames read through their spans, not a closure over the message: captured,
        // each frame was retained and released around its `zmq_send`.
        let rest = messages[position].ownedRest.span
        let flags = ZMQ_DONTWAIT | (rest.isEmpty ? 0 : ZMQ_SNDMORE)
        guard try sent(send(messages[position].ownedFirst.span, flags: flags), first: true) else { return false }
        // libzmq accepts the rest of a multipart message once it took the first frame.
        var index = 0
        while index < rest.count {
            let more = ZMQ_DONTWAIT | (index < rest.count - 1 ? ZMQ_SNDMORE : 0)
            _ = try sent(send(rest[index].span, flags: more), first: false)
            index += 1
        }
        return true
    }

    /// ``trySend(_:at:)`` for a message whose frames live in a received batch's block (an echo).
    private func trySendShared(_ message: Message) throws(ZMQError) -> Bool {
        let count = message.frameCount
        for index in 0..<count {
            let flags = ZMQ_DONTWAIT | (index < count - 1 ? ZMQ_SNDMORE : 0)
            // libzmq accepts the rest of a multipart message once it took the first frame.
            guard try sent(message.withFrame(index) { zmq_send(handle, $0.baseAddress, $0.count, flags) }, first: index == 0)
            else { return false }
        }
        return true
    }

    private func send(_ frame: Span<UInt8>, flags: Int32) -> Int32 {
        frame.withUnsafeBytes { zmq_send(handle, $0.baseAddress, $0.count, flags) }
    }

    /// What `zmq_send`'s result means: sent, the first frame refused for a full queue (`false`), or an error.
    private func sent(_ result: Int32, first: Bool) throws(ZMQError) -> Bool {
        if result >= 0 { return true }
        let error = ZMQError.last("send on \(type)")
        if first && error.isWouldBlock { return false }
        throw error
    }

    /// Takes one whole message from libzmq without blocking, or `nil` if none is waiting.
    func tryReceive() throws(ZMQError) -> Message? {
        var batch = ReceivedBatch()
        guard try tryReceive(into: &batch) else { return nil }
        return batch.take().first
    }

    /// Copies one whole message from libzmq into `batch` without blocking.
    /// - Returns: `false` if none was waiting.
    func tryReceive(into batch: inout ReceivedBatch) throws(ZMQError) -> Bool {
        guard try receiveFrame(firstOfMessage: true) else { return false }
        batch.open()
        do throws(ZMQError) {
            repeat {
                batch.appendFrame(UnsafeRawBufferPointer(start: zmq_msg_data(scratch), count: zmq_msg_size(scratch)))
                // libzmq delivers the parts of a message together: the rest is always there.
            } while try zmq_msg_more(scratch) != 0 ? receiveFrame(firstOfMessage: false) : false
        } catch {
            batch.abandon()
            throw error
        }
        // A ROUTER makes the identity frame itself, without the connection's metadata: the
        // peer's frames (the last one here) carry it.
        var userID: String?
        if readsUserID, let name = zmq_msg_gets(scratch, "User-Id") {
            userID = String(decoding: UnsafeRawBufferPointer(start: name, count: strlen(name)), as: UTF8.self)
        }
        batch.close(userID: userID)
        return true
    }

    /// Receives the next frame into ``scratch``.
    /// - Returns: `false` if there was none for the first frame of a message.
    private func receiveFrame(firstOfMessage: Bool) throws(ZMQError) -> Bool {
        guard zmq_msg_recv(scratch, handle, ZMQ_DONTWAIT) < 0 else { return true }
        let error = ZMQError.last("receive on \(type)")
        if firstOfMessage && error.isWouldBlock { return false }
        throw error
    }

    /// The descriptor libzmq makes readable when something may have changed for the socket
    /// (`ZMQ_FD`). It is edge-triggered: any call on the socket may take the change in without a
    /// trace on the descriptor, so after one only ``readiness()`` says what the socket can do.
    func signalDescriptor() throws(ZMQError) -> Int32 {
        var descriptor: Int32 = -1
        var size = MemoryLayout<Int32>.size
        guard zmq_getsockopt(handle, ZMQ_FD, &descriptor, &size) == 0 else {
            throw ZMQError.last("get FD of \(type)")
        }
        return descriptor
    }

    /// What the socket can do now (`ZMQ_EVENTS`). It takes in libzmq's pending commands, so that
    /// the signal descriptor becomes readable at the next change. Should libzmq fail to say,
    /// both: the receive or send that follows reports the error.
    func readiness() -> (readable: Bool, writable: Bool) {
        var events: Int32 = 0
        var size = MemoryLayout<Int32>.size
        guard zmq_getsockopt(handle, ZMQ_EVENTS, &events, &size) == 0 else { return (true, true) }
        return (events & ZMQ_POLLIN != 0, events & ZMQ_POLLOUT != 0)
    }

    /// Starts libzmq's monitor for this socket on an inproc endpoint.
    func startMonitor(endpoint: String) throws(ZMQError) {
        guard zmq_socket_monitor(handle, endpoint, ZMQ_EVENT_ALL) == 0 else {
            throw ZMQError.last("monitor \(type)")
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        zmq_close(handle)
    }

    private func set(_ option: Int32, _ value: Int32, _ name: String) throws(ZMQError) {
        var value = value
        guard zmq_setsockopt(handle, option, &value, MemoryLayout<Int32>.size) == 0 else {
            throw ZMQError.last("set \(name) on \(type)")
        }
    }

    private func setBytes(_ option: Int32, _ value: [UInt8], _ name: String) throws(ZMQError) {
        let result = value.withUnsafeBytes { zmq_setsockopt(handle, option, $0.baseAddress, $0.count) }
        guard result == 0 else { throw ZMQError.last("set \(name) on \(type)") }
    }
}
