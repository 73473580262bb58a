import CRibcity
import Glibc

/// A Unix packet link (`SOCK_SEQPACKET`, endpoints `unix://PATH`) in a libzmq socket's place in
/// the I/O loop, for a run's window link on one host: a message goes from one process's loop
/// to the other's in one system call each way, without libzmq's I/O thread in between, which
/// took two thread wake-ups out of each direction of every window (PERFORMANCE.md, session 36).
///
/// Two shapes, as the window link uses them: a ROUTER binds and takes any number of
/// connections, each message received comes with its connection's identity as the first frame
/// and each sent goes to the connection its first frame names (an unknown one fails, as
/// ROUTER_MANDATORY would); a DEALER connects to one ROUTER, waits for it if it has not bound
/// yet, and connects again when it goes away (its process started again binds the same path),
/// as libzmq's DEALER does, holding what it sends meanwhile. A DEALER with a routing id
/// (``SocketOptions/routingID``) names itself with it first thing on each connection, and its
/// ROUTER knows it by that name (one already taken is refused, as libzmq refuses it without
/// ROUTER_HANDOVER); without one, a ROUTER names each connection itself. Only processes of this machine's user are admitted
/// (`SO_PEERCRED`), as a socket file's permissions admit them to an ipc endpoint. No CURVE (a
/// run with CURVE keeps libzmq for its links).
///
/// A datagram carries one or more whole messages for one connection (those sent together, up to
/// ``batchBytes``), each as its frame count, then each frame's length and bytes (32-bit
/// little-endian numbers); a DEALER's greeting is a frame count of 0 and its routing id. Used
/// only on the I/O thread that created it.
final class PacketSocket: LoopSocket {
    /// The scheme of its endpoints.
    static let scheme = "unix://"
    /// The largest message it receives whole: as large as the largest a peer can send, the
    /// kernel's send buffer (``bufferBytes``, which the kernel doubles). A larger one is dropped
    /// and reported. Only the pages a message touches are ever taken from the system.
    static let receiveCapacity = 8 << 20
    /// A DEALER's first wait before connecting again, doubled up to ``reconnectIntervalMax``
    /// (libzmq's as ribcity sets it for peers started alongside).
    static let reconnectInterval: Duration = .milliseconds(5)
    static let reconnectIntervalMax: Duration = .milliseconds(100)
    /// Each socket's kernel buffers: a datagram is at most as large as the send buffer, and a
    /// snapshot chunk of a thousand events is larger than the default (208 KiB). The kernel caps
    /// it at `net.core.wmem_max`.
    static let bufferBytes: Int32 = 4 << 20
    /// The size up to which messages for one connection are sent together in one datagram (a
    /// larger message goes alone).
    static let batchBytes = 64 << 10

    private let type: SocketType
    /// A DEALER's name for itself, said first on each connection.
    private let routingID: [UInt8]?
    private let epoll: Int32
    private var listener: Int32 = -1
    private var boundPath: String?
    /// A ROUTER's connections by descriptor, with the identity that names each; a DEALER's one.
    private var identities: [Int32: [UInt8]] = [:]
    private var descriptors: [[UInt8]: Int32] = [:]
    private var nextIdentity: UInt32 = 0
    /// A DEALER's ROUTER, once asked to connect: where it connects (again) when not connected.
    private var target: (path: String, endpoint: String)?
    private(set) var retryAt: ContinuousClock.Instant?
    private var retryInterval = PacketSocket.reconnectInterval
    /// Connections that may have something to read, in the order they said so.
    private var maybeReadable: [Int32] = []
    /// Whether the listener may have connections to accept.
    private var acceptPending = false
    /// Connections whose last send would have blocked (watched for writing until they can).
    private var blocked: Set<Int32> = []
    private let receiveBuffer: UnsafeMutableRawBufferPointer
    private var sendBuffer: [UInt8] = []
    /// The messages of the last datagram read that were not taken yet, from ``receivedNext`` on.
    private var received: [Message] = []
    private var receivedNext = 0
    /// Where ``readiness()`` takes epoll's events: descriptors, and what each can do.
    private var fds = [Int32](repeating: 0, count: 64)
    private var flags = [Int32](repeating: 0, count: 64)
    private var isClosed = false

    init(type: SocketType, routingID: [UInt8]? = nil) throws(ZMQError) {
        guard type == .router || type == .dealer else {
            throw ZMQError.unsupported("a \(type) over a Unix packet link (only ROUTER and DEALER)")
        }
        let epoll = ribcity_epoll_create()
        guard epoll >= 0 else { throw ZMQError(code: errno, operation: "create the packet link's epoll") }
        self.type = type
        self.routingID = routingID.flatMap { $0.isEmpty ? nil : $0 }
        self.epoll = epoll
        receiveBuffer = .allocate(byteCount: Self.receiveCapacity, alignment: 8)
    }

    deinit {
        close()
        receiveBuffer.deallocate()
    }

    // MARK: LoopSocket

    func signalDescriptor() throws(ZMQError) -> Int32 { epoll }

    func readiness() -> (readable: Bool, writable: Bool) {
        while true {
            let count = Int(ribcity_epoll_ready(epoll, &fds, &flags, 64))
            if count <= 0 { break }
            for index in 0..<count {
                let fd = fds[index]
                if fd == listener {
                    acceptPending = true
                    continue
                }
                if flags[index] & 1 != 0, !maybeReadable.contains(fd) { maybeReadable.append(fd) }
                if flags[index] & 2 != 0, blocked.remove(fd) != nil { _ = ribcity_epoll_watch(epoll, fd, 0, 1) }
            }
            if count < 64 { break }
        }
        let connected = !identities.isEmpty
        // A ROUTER's sends never wait for a writable signal (the loop retries them on a timer).
        let writable = type == .router || (connected && blocked.isEmpty)
        return (acceptPending || !maybeReadable.isEmpty || receivedNext < received.count, writable)
    }

    func tryReceive(into batch: inout ReceivedBatch) throws(ZMQError) -> Bool {
        guard let message = try tryReceive() else { return false }
        batch.append(message)
        return true
    }

    /// The next whole message, or nil if none is waiting.
    func tryReceive() throws(ZMQError) -> Message? {
        if receivedNext < received.count {
            defer { receivedNext += 1 }
            return received[receivedNext]
        }
        if acceptPending { acceptWaiting() }
        while let fd = maybeReadable.first {
            let count = recv(fd, receiveBuffer.baseAddress, receiveBuffer.count, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC))
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    maybeReadable.removeFirst()
                    continue
                }
                drop(fd)
                throw ZMQError(code: code, operation: "receive on a packet link")
            }
            // A peer that closed (every message has at least its frame count).
            if count == 0 {
                drop(fd)
                continue
            }
            guard count <= receiveBuffer.count else {
                throw ZMQError(
                    code: EMSGSIZE, operation: "receive a \(count)-byte message on a packet link (at most \(receiveBuffer.count))"
                )
            }
            let datagram = UnsafeRawBufferPointer(rebasing: receiveBuffer[0..<count])
            if type == .router, let name = Self.greeting(in: datagram) {
                named(fd, name)
                continue
            }
            let messages = try Self.messages(in: datagram)
            if type == .router, let identity = identities[fd] {
                received = messages.map { frames in
                    var message = Message(identity)
                    message.rest = frames
                    return message
                }
            } else {
                received = messages.map { Message($0) }
            }
            receivedNext = 1
            return received[0]
        }
        return nil
    }

    func trySend(_ messages: [Message], from start: Int, limit: Int) -> SendRun {
        var run = SendRun()
        var index = start
        while index < messages.count, run.sent < limit {
            let message = messages[index]
            let fd: Int32
            if type == .router {
                guard let peer = descriptors[message.first] else {
                    run.stop = .failed(ZMQError(code: EHOSTUNREACH, operation: "send on a packet link to an unknown peer"))
                    return run
                }
                fd = peer
            } else {
                guard let peer = identities.keys.first else {
                    // Held until the DEALER connects (again), as libzmq's would be.
                    run.stop =
                        target == nil
                        ? .failed(ZMQError(code: ENOTCONN, operation: "send on a packet link that is not connected")) : .full
                    return run
                }
                fd = peer
            }
            // The messages that follow for the same connection go in the same datagram, up to
            // ``batchBytes``: one system call for a window's worth of them.
            sendBuffer.removeAll(keepingCapacity: true)
            encodeNext(message)
            var count = 1
            while index + count < messages.count, run.sent + count < limit {
                let next = messages[index + count]
                guard type == .dealer || descriptors[next.first] == fd,
                    sendBuffer.count + encodedSize(next) <= Self.batchBytes
                else { break }
                encodeNext(next)
                count += 1
            }
            let sent = sendBuffer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if sent < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    blocked.insert(fd)
                    _ = ribcity_epoll_watch(epoll, fd, 1, 1)
                    run.stop = .full
                } else if type == .dealer, [EPIPE, ECONNRESET, ENOTCONN].contains(code) {
                    // The ROUTER went away before the loop noticed: held for the next one.
                    drop(fd)
                    run.stop = .full
                } else {
                    run.stop = .failed(ZMQError(code: code, operation: "send on a packet link"))
                }
                return run
            }
            run.sent += count
            index += count
        }
        return run
    }

    func bind(_ endpoint: String) throws(ZMQError) -> String {
        guard type == .router else { throw ZMQError.unsupported("bind a \(type) packet link (a ROUTER binds)") }
        guard listener < 0 else { throw ZMQError.unsupported("a second bind on a ROUTER packet link") }
        let path = try Self.path(of: endpoint)
        let fd = try Self.unixSocket(for: "bind \(endpoint)")
        unlink(path)
        do throws(ZMQError) {
            try Self.withAddress(path, operation: "bind \(endpoint)") { address, size in Glibc.bind(fd, address, size) }
            guard listen(fd, 128) == 0 else { throw ZMQError(code: errno, operation: "listen on \(endpoint)") }
            guard ribcity_epoll_watch(epoll, fd, 0, 0) == 0 else { throw ZMQError(code: errno, operation: "watch \(endpoint)") }
        } catch {
            Glibc.close(fd)
            throw error
        }
        listener = fd
        boundPath = path
        acceptPending = true
        return endpoint
    }

    /// Connects now, or, if the ROUTER has not bound yet, on the loop's later turns (``retryAt``).
    func connect(_ endpoint: String) throws(ZMQError) {
        guard type == .dealer else { throw ZMQError.unsupported("connect a \(type) packet link (a DEALER connects)") }
        guard target == nil else { throw ZMQError.unsupported("a second connection on a DEALER packet link") }
        target = (try Self.path(of: endpoint), endpoint)
        try connectNow()
    }

    func retry() {
        retryAt = nil
        do {
            try connectNow()
        } catch {
            // Not a ROUTER missing but something else (permissions, say): tried again all the same.
            retryAt = ContinuousClock.now.advanced(by: Self.reconnectIntervalMax)
        }
    }

    /// One attempt; a ROUTER not there (yet, or any more) is tried again later, doubling the wait.
    private func connectNow() throws(ZMQError) {
        guard let target, identities.isEmpty, !isClosed else { return }
        let fd = try Self.unixSocket(for: "connect \(target.endpoint)")
        do throws(ZMQError) {
            try Self.withAddress(target.path, operation: "connect \(target.endpoint)") { address, size in
                Glibc.connect(fd, address, size)
            }
            guard ribcity_epoll_watch(epoll, fd, 0, 0) == 0 else {
                throw ZMQError(code: errno, operation: "watch \(target.endpoint)")
            }
        } catch {
            Glibc.close(fd)
            guard [ENOENT, ECONNREFUSED, EAGAIN, EINTR].contains(error.code) else { throw error }
            retryAt = ContinuousClock.now.advanced(by: retryInterval)
            retryInterval = min(retryInterval * 2, Self.reconnectIntervalMax)
            return
        }
        if let routingID {
            encode([routingID])
            // A greeting's frame count is 0 (no message has fewer than one frame).
            sendBuffer.replaceSubrange(0..<4, with: [0, 0, 0, 0])
            let sent = sendBuffer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            guard sent == sendBuffer.count else {
                // A connection that cannot take its first datagram: tried again as one that failed.
                Glibc.close(fd)
                retryAt = ContinuousClock.now.advanced(by: retryInterval)
                return
            }
        }
        retryInterval = Self.reconnectInterval
        identities[fd] = []
        maybeReadable.append(fd)
    }

    /// Whether a ROUTER has a connection by this name (``SplitRouter`` sends its peers' messages
    /// here, the rest to libzmq).
    func knows(_ identity: [UInt8]) -> Bool { descriptors[identity] != nil }

    /// A greeting names a new connection: its DEALER's routing id, unless another connection has
    /// it (then the newcomer is refused, as libzmq refuses a routing id in use).
    private func named(_ fd: Int32, _ name: [UInt8]) {
        guard let given = identities[fd], given != name else { return }
        guard !name.isEmpty, descriptors[name] == nil else {
            drop(fd)
            return
        }
        descriptors[given] = nil
        identities[fd] = name
        descriptors[name] = fd
    }

    func disconnect(_ endpoint: String) throws(ZMQError) { throw ZMQError.unsupported("disconnect a packet link") }
    func unbind(_ endpoint: String) throws(ZMQError) { throw ZMQError.unsupported("unbind a packet link") }
    func subscribe(_ prefix: [UInt8]) throws(ZMQError) { throw ZMQError.unsupported("subscribe on a packet link") }
    func unsubscribe(_ prefix: [UInt8]) throws(ZMQError) { throw ZMQError.unsupported("unsubscribe on a packet link") }
    func useCurve(_ curve: CurveRole) throws(ZMQError) {
        throw ZMQError.unsupported("CURVE on a Unix packet link (a run with CURVE keeps libzmq for its window link)")
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        for fd in identities.keys { Glibc.close(fd) }
        identities = [:]
        descriptors = [:]
        maybeReadable = []
        received = []
        if listener >= 0 { Glibc.close(listener) }
        if let boundPath { unlink(boundPath) }
        Glibc.close(epoll)
    }

    // MARK: Connections

    private func acceptWaiting() {
        acceptPending = false
        while true {
            let fd = ribcity_accept(listener)
            if fd < 0 {
                if errno == EINTR { continue }
                // EAGAIN: none left; anything else (a connection that went away first): next time.
                return
            }
            var uid: UInt32 = 0
            guard ribcity_peer_uid(fd, &uid) == 0, uid == getuid(), ribcity_epoll_watch(epoll, fd, 0, 0) == 0 else {
                Glibc.close(fd)
                continue
            }
            Self.enlargeBuffers(fd)
            nextIdentity += 1
            let identity = withUnsafeBytes(of: nextIdentity.bigEndian) { Array($0) }
            identities[fd] = identity
            descriptors[identity] = fd
            maybeReadable.append(fd)
        }
    }

    private func drop(_ fd: Int32) {
        maybeReadable.removeAll { $0 == fd }
        blocked.remove(fd)
        if let identity = identities.removeValue(forKey: fd) { descriptors[identity] = nil }
        _ = ribcity_epoll_forget(epoll, fd)
        Glibc.close(fd)
        // A DEALER whose ROUTER went away connects again, to whoever binds its path next.
        if type == .dealer, target != nil, retryAt == nil { retryAt = ContinuousClock.now.advanced(by: retryInterval) }
    }

    // MARK: Datagrams

    private func encode(_ frames: [[UInt8]]) {
        sendBuffer.removeAll(keepingCapacity: true)
        Self.append(UInt32(frames.count), to: &sendBuffer)
        for frame in frames { frame.withUnsafeBytes { appendFrame($0) } }
    }

    /// Adds a message to the datagram being built: a ROUTER's without its first frame (the
    /// connection's identity). Read in place, not through ``Message/frames`` (an array a message).
    private func encodeNext(_ message: Message) {
        let skipped = type == .router ? 1 : 0
        Self.append(UInt32(message.frameCount - skipped), to: &sendBuffer)
        for index in skipped..<message.frameCount { message.withFrame(index) { appendFrame($0) } }
    }

    /// Adds one frame, its length first.
    private func appendFrame(_ frame: UnsafeRawBufferPointer) {
        Self.append(UInt32(frame.count), to: &sendBuffer)
        sendBuffer.append(contentsOf: frame)
    }

    /// The bytes ``encodeNext(_:)`` adds for a message.
    private func encodedSize(_ message: Message) -> Int {
        let size = 4 + 4 * message.frameCount + message.byteCount
        return type == .router ? size - 4 - message.withFrame(0) { $0.count } : size
    }

    private static func append(_ value: UInt32, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    }

    /// A DEALER's greeting's routing id, if the datagram is one: a frame count of 0, then the
    /// name's length and bytes.
    static func greeting(in datagram: UnsafeRawBufferPointer) -> [UInt8]? {
        guard datagram.count >= 8, datagram.loadUnaligned(as: UInt32.self) == 0 else { return nil }
        let length = Int(UInt32(littleEndian: datagram.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
        guard length == datagram.count - 8 else { return [] }
        return Array(datagram[8...])
    }

    /// The messages of one datagram, each as its frames, in order; a malformed datagram (a count
    /// or length past its end, bytes left over) is refused whole.
    static func messages(in datagram: UnsafeRawBufferPointer) throws(ZMQError) -> [[[UInt8]]] {
        func malformed(_ why: String) -> ZMQError {
            ZMQError(code: EPROTO, operation: "read a \(datagram.count)-byte packet-link datagram: \(why)")
        }
        var offset = 0
        func number() -> UInt32? {
            guard datagram.count - offset >= 4 else { return nil }
            defer { offset += 4 }
            return UInt32(littleEndian: datagram.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        var messages: [[[UInt8]]] = []
        repeat {
            guard let count = number(), count >= 1 else { throw malformed("no frame count") }
            // Each frame takes at least its length: a count larger than that cannot be honest.
            guard Int(count) <= (datagram.count - offset) / 4 else { throw malformed("\(count) frames cannot fit") }
            var frames: [[UInt8]] = []
            frames.reserveCapacity(Int(count))
            for index in 0..<Int(count) {
                guard let length = number() else { throw malformed("frame \(index + 1) has no length") }
                guard Int(length) <= datagram.count - offset else { throw malformed("frame \(index + 1) runs past the end") }
                frames.append([UInt8](UnsafeRawBufferPointer(rebasing: datagram[offset..<offset + Int(length)])))
                offset += Int(length)
            }
            messages.append(frames)
            let left = datagram.count - offset
            if left > 0, left < 4 { throw malformed("\(left) bytes after the last frame") }
        } while offset < datagram.count
        return messages
    }

    // MARK: Addresses

    private static func path(of endpoint: String) throws(ZMQError) -> String {
        guard endpoint.hasPrefix(scheme), endpoint.count > scheme.count else {
            throw ZMQError.unsupported("\(endpoint): a packet link's endpoint is unix://PATH")
        }
        return String(endpoint.dropFirst(scheme.count))
    }

    private static func unixSocket(for operation: String) throws(ZMQError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ZMQError(code: errno, operation: operation) }
        enlargeBuffers(fd)
        return fd
    }

    /// Best effort: a smaller buffer only limits the largest message, and says so when sent.
    private static func enlargeBuffers(_ fd: Int32) {
        var bytes = bufferBytes
        for option in [SO_SNDBUF, SO_RCVBUF] {
            _ = setsockopt(fd, SOL_SOCKET, option, &bytes, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    private static func withAddress(
        _ path: String, operation: String, _ call: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws(ZMQError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw ZMQError(
                code: ENAMETOOLONG, operation: "\(operation): the path is \(bytes.count) bytes (at most \(capacity - 1))")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw ZMQError(code: errno, operation: operation) }
    }
}
