/// The socket options ribcity sets, applied on the I/O thread when the socket is created.
///
/// `nil` leaves libzmq's default, except ``linger``, which defaults to one second so that
/// closing never hangs on a peer that has gone away.
public struct SocketOptions: Sendable {
    /// ZMQ_SNDHWM: messages libzmq queues per peer before sends block (or PUB drops).
    public var sendHighWaterMark: Int32?
    /// ZMQ_RCVHWM: messages libzmq queues per peer on the receiving side.
    public var receiveHighWaterMark: Int32?
    /// ZMQ_LINGER: how long unsent messages may keep the socket alive after close.
    /// A negative duration waits forever (libzmq's -1); use it only where the peer is known alive.
    public var linger: Duration = .seconds(1)
    /// ZMQ_ROUTER_MANDATORY: sending to an unknown peer fails with EHOSTUNREACH instead of a silent drop.
    public var routerMandatory: Bool?
    /// ZMQ_IMMEDIATE: queue messages only to completed connections.
    public var immediate: Bool?
    /// ZMQ_RECONNECT_IVL and ZMQ_RECONNECT_IVL_MAX.
    public var reconnectInterval: Duration?
    public var reconnectIntervalMax: Duration?
    /// ZMQ_HEARTBEAT_IVL, ZMQ_HEARTBEAT_TIMEOUT and ZMQ_HEARTBEAT_TTL (ZMTP pings).
    public var heartbeatInterval: Duration?
    public var heartbeatTimeout: Duration?
    public var heartbeatTTL: Duration?
    /// ZMQ_ROUTING_ID: the identity a DEALER or REQ presents to a ROUTER.
    public var routingID: [UInt8]?
    /// ZMQ_XPUB_VERBOSE: pass every subscription upstream, not only new ones.
    public var xpubVerbose: Bool?
    /// Topic prefixes a SUB socket subscribes to at creation (`[]` is everything).
    public var subscriptions: [[UInt8]] = []
    /// Messages the transport buffers for this socket's sends before `send` suspends.
    public var outboundCapacity: Int = 4096
    /// Messages the transport buffers for the consumer before it stops reading from libzmq
    /// (libzmq's own high-water mark then pushes back on the peer).
    public var inboundCapacity: Int = 4096
    /// The same in bytes (nil: no limit but the count): what a peer sending large messages can
    /// make this process hold before libzmq's high-water mark pushes back on it.
    public var inboundByteCapacity: Int?
    /// ROUTER only: how long a message may wait for a peer whose queue is full before it fails
    /// (`ZMQError.isWouldBlock` for a confirmed send, a `sendFailed` event otherwise). A ROUTER
    /// sends in order, so without a limit one peer that stops reading holds up every other
    /// peer's messages for good; `nil` waits (back-pressure, nothing dropped).
    public var fullPeerTimeout: Duration?
    /// CURVE encryption and authentication (ZMQ_CURVE_SERVER and its keys, or a client's keys
    /// and the server's public key). A server's peers are admitted by the transport's
    /// ``Authenticator`` (ZAP, domain "ribcity"); each message then carries the name its
    /// sender's key was issued to (``Message/userID``).
    public var curve: CurveRole?
    /// ZMQ_MAXMSGSIZE: a peer that sends a larger message is disconnected (nil: no limit).
    public var maximumMessageBytes: Int64?
    /// Whether to publish socket monitor events (connected, disconnected, …) on `Socket.events`.
    public var monitor: Bool = false

    public init() {}

    /// Options with the given subscriptions, for SUB sockets.
    public static func subscribing(to prefixes: [String]) -> SocketOptions {
        var options = SocketOptions()
        options.subscriptions = prefixes.map { Array($0.utf8) }
        return options
    }
}

extension Duration {
    /// Whole milliseconds, as libzmq's time options take them (saturating).
    var zmqMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        let millis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }
}

extension SocketOptions {
    /// For every socket of the event bus (publishers, the proxy's two sides, subscribers): queues
    /// deep enough for a city's bursts (dispatch publishes a matching round at once). A subscriber
    /// that stays slower than the city still loses messages, and reports the gap. No bus message
    /// comes near a mebibyte: a peer that sends one is cut off at its header.
    public static var eventBus: SocketOptions {
        var options = SocketOptions()
        options.maximumMessageBytes = 1 << 20
        options.sendHighWaterMark = 500_000
        options.receiveHighWaterMark = 500_000
        return options
    }

    /// For a socket that connects to a peer started at the same moment, which may not have bound
    /// yet: libzmq's first retry comes 100 ms later by default, which held up the second window of
    /// every virtual run (PERFORMANCE.md, session 33). It retries after 5 ms, backing off to
    /// libzmq's 100 ms and no further, so a peer's restart is found no later than before.
    public static var connectingToPeerStartedAlongside: SocketOptions {
        var options = SocketOptions()
        options.reconnectInterval = .milliseconds(5)
        options.reconnectIntervalMax = .milliseconds(100)
        return options
    }
}
