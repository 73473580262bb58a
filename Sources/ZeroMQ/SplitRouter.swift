import CRibcity
import Glibc

/// A ROUTER that serves libzmq's peers and a Unix packet link's at once: what a ROUTER bound
/// over libzmq becomes when it also binds a `unix://` endpoint. Dispatch's sessions endpoint is
/// the protocol's public face (any ZeroMQ client connects to it), while a run's own hosts on the
/// same machine reach dispatch over the packet link, loop to loop without libzmq's I/O threads
/// (PERFORMANCE.md, session 37).
///
/// Each message received comes with its peer's identity, whichever side it came from; a message
/// sent goes to the packet link when a connection there has its identity (a DEALER names itself
/// with its routing id), else to libzmq. The loop polls one descriptor, an epoll of both sides'.
/// Used only on the I/O thread that created it.
final class SplitRouter: LoopSocket {
    private let zmq: RawSocket
    private let packets: PacketSocket
    private let epoll: Int32
    /// Which side is read first next: they take turns, so that neither starves the other.
    private var packetsFirst = true
    private var fds = [Int32](repeating: 0, count: 2)
    private var flags = [Int32](repeating: 0, count: 2)

    init(zmq: RawSocket, packets: PacketSocket) throws(ZMQError) {
        let epoll = ribcity_epoll_create()
        guard epoll >= 0 else { throw ZMQError(code: errno, operation: "create a split ROUTER's epoll") }
        do throws(ZMQError) {
            for fd in [try zmq.signalDescriptor(), try packets.signalDescriptor()] {
                guard ribcity_epoll_watch(epoll, fd, 0, 0) == 0 else {
                    throw ZMQError(code: errno, operation: "watch a split ROUTER's side")
                }
            }
        } catch {
            Glibc.close(epoll)
            throw error
        }
        self.zmq = zmq
        self.packets = packets
        self.epoll = epoll
    }

    func signalDescriptor() throws(ZMQError) -> Int32 { epoll }

    func readiness() -> (readable: Bool, writable: Bool) {
        // Only a change to look at: each side says for itself what it can do.
        while ribcity_epoll_ready(epoll, &fds, &flags, 2) == 2 {}
        let (zmqReadable, zmqWritable) = zmq.readiness()
        let (packetsReadable, _) = packets.readiness()
        return (zmqReadable || packetsReadable, zmqWritable)
    }

    func tryReceive(into batch: inout ReceivedBatch) throws(ZMQError) -> Bool {
        packetsFirst.toggle()
        let (first, second): (any LoopSocket, any LoopSocket) = packetsFirst ? (packets, zmq) : (zmq, packets)
        if try first.tryReceive(into: &batch) { return true }
        return try second.tryReceive(into: &batch)
    }

    func trySend(_ messages: [Message], from start: Int, limit: Int) -> SendRun {
        var run = SendRun()
        var index = start
        while index < messages.count, run.sent < limit {
            // The longest run of messages bound for one side, sent there in one pass.
            let overPackets = packets.knows(messages[index].first)
            var end = index + 1
            while end < messages.count, end - start < limit, packets.knows(messages[end].first) == overPackets { end += 1 }
            let side: any LoopSocket = overPackets ? packets : zmq
            let part = side.trySend(messages, from: index, limit: end - index)
            run.sent += part.sent
            index += part.sent
            if let stop = part.stop {
                run.stop = stop
                return run
            }
        }
        return run
    }

    func bind(_ endpoint: String) throws(ZMQError) -> String {
        endpoint.hasPrefix(PacketSocket.scheme) ? try packets.bind(endpoint) : try zmq.bind(endpoint)
    }

    func connect(_ endpoint: String) throws(ZMQError) {
        throw ZMQError.unsupported("connect a ROUTER that serves libzmq and a packet link")
    }

    func disconnect(_ endpoint: String) throws(ZMQError) { try zmq.disconnect(endpoint) }
    func unbind(_ endpoint: String) throws(ZMQError) { try zmq.unbind(endpoint) }
    func subscribe(_ prefix: [UInt8]) throws(ZMQError) { try zmq.subscribe(prefix) }
    func unsubscribe(_ prefix: [UInt8]) throws(ZMQError) { try zmq.unsubscribe(prefix) }
    func useCurve(_ curve: CurveRole) throws(ZMQError) {
        throw ZMQError.unsupported("CURVE on a ROUTER that also serves a packet link")
    }

    var retryAt: ContinuousClock.Instant? { nil }
    func retry() {}

    func close() {
        packets.close()
        zmq.close()
        Glibc.close(epoll)
    }
}
