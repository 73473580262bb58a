/// What the I/O loop needs of a socket it owns: a descriptor to poll, what the socket can do
/// now, and non-blocking receives and sends of whole messages. A libzmq socket
/// (``RawSocket``) is one; a Unix packet link (``PacketSocket``) is the other.
///
/// Used only on the I/O thread that created it: never `Sendable`.
protocol LoopSocket: AnyObject {
    /// The descriptor the loop polls for reading: readable when something may have changed.
    func signalDescriptor() throws(ZMQError) -> Int32
    /// What the socket can do now; takes in the change the descriptor signalled.
    func readiness() -> (readable: Bool, writable: Bool)
    /// Adds the next whole message to `batch`; `false` if none is waiting.
    func tryReceive(into batch: inout ReceivedBatch) throws(ZMQError) -> Bool
    /// Sends whole messages from `messages[start...]` without blocking, at most `limit` of them.
    func trySend(_ messages: [Message], from start: Int, limit: Int) -> SendRun
    func bind(_ endpoint: String) throws(ZMQError) -> String
    func connect(_ endpoint: String) throws(ZMQError)
    func disconnect(_ endpoint: String) throws(ZMQError)
    func unbind(_ endpoint: String) throws(ZMQError)
    func subscribe(_ prefix: [UInt8]) throws(ZMQError)
    func unsubscribe(_ prefix: [UInt8]) throws(ZMQError)
    func useCurve(_ curve: CurveRole) throws(ZMQError)
    /// When the socket wants ``retry()`` called (a packet link's DEALER waiting to connect
    /// again); nil for never. libzmq reconnects on its own thread.
    var retryAt: ContinuousClock.Instant? { get }
    /// Tries again what ``retryAt`` waits for.
    func retry()
    func close()
}

/// How a run of sends ended: all sent, or stopped at the message after the last one sent.
struct SendRun {
    enum Stop {
        /// The queue for it is full: nothing of it was sent.
        case full
        /// It failed (perhaps after its first frames went).
        case failed(ZMQError)
    }

    var sent = 0
    var stop: Stop?
}

extension RawSocket: LoopSocket {
    var retryAt: ContinuousClock.Instant? { nil }
    func retry() {}
}
