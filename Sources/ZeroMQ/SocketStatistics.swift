import Synchronization

/// Counts a socket's traffic; written by the I/O thread, read by anyone.
final class SocketCounters: Sendable {
    let sent = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let sendFailures = Atomic<Int>(0)
}

/// A point-in-time view of a socket's traffic.
public struct SocketStatistics: Sendable, Equatable {
    /// Messages handed to libzmq.
    public var sent: Int
    /// Messages taken from libzmq.
    public var received: Int
    /// Messages libzmq refused (unknown ROUTER peer, socket closed before LINGER let them go, …).
    public var sendFailures: Int
    /// Messages queued in the transport, not yet handed to libzmq.
    public var queuedOutbound: Int
    /// Messages received and not yet taken by the consumer.
    public var queuedInbound: Int
}
