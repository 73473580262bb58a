import Synchronization

/// What a socket's handle and the I/O thread share: the queues between them, counters and events.
final class SocketCore: Sendable {
    let id: Int
    let type: SocketType
    let options: SocketOptions
    let inbound: InboundBuffer
    let outbound: OutboundBuffer
    let counters = SocketCounters()
    /// The id of the socket whose next input lets this one's be read again, or -1 when its input
    /// is not held (``Socket/holdInput(until:)``).
    let heldUntil = Atomic<Int>(-1)
    /// How long, in milliseconds, its input is held at most.
    let heldAtMostMs = Atomic<Int>(0)
    /// Whether what it holds already when the last hold was asked for is read first, and how
    /// many holds were asked for (so that the I/O thread sees each ask once).
    let heldReadsFirst = Atomic<Bool>(false)
    let heldAsks = Atomic<Int>(0)
    let events: AsyncStream<SocketEvent>
    let eventSink: AsyncStream<SocketEvent>.Continuation

    init(id: Int, type: SocketType, options: SocketOptions, waker: Waker) {
        self.id = id
        self.type = type
        self.options = options
        inbound = InboundBuffer(capacity: options.inboundCapacity, byteCapacity: options.inboundByteCapacity, waker: waker)
        outbound = OutboundBuffer(capacity: options.outboundCapacity, waker: waker)
        (events, eventSink) = AsyncStream.makeStream(of: SocketEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    var statistics: SocketStatistics {
        let (queued, waiting) = outbound.counts
        return SocketStatistics(
            sent: counters.sent.load(ordering: .relaxed),
            received: counters.received.load(ordering: .relaxed),
            sendFailures: counters.sendFailures.load(ordering: .relaxed),
            queuedOutbound: queued + waiting,
            queuedInbound: inbound.count
        )
    }
}
