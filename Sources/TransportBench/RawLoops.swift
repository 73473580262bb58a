import CZeroMQ
import Foundation
import Histogram
import ZeroMQ

/// The baseline: minimal loops straight on libzmq's C API, blocking calls on a plain thread.
enum RawLoops {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        static func last(_ what: String) -> Failure {
            Failure(description: "\(what): \(String(cString: zmq_strerror(zmq_errno())))")
        }
    }

    /// Binds a PULL socket, reports the endpoint, then times `count` messages from first to last.
    static func receive(bind endpoint: String, count: Int, curve: BenchKeys?, ready: @Sendable (String) -> Void) throws -> UInt64
    {
        let context = zmq_ctx_new()
        defer { zmq_ctx_term(context) }
        let socket = zmq_socket(context, ZMQ_PULL)
        defer { zmq_close(socket) }
        try curve?.serve(raw: socket)
        guard zmq_bind(socket, endpoint) == 0 else { throw Failure.last("bind \(endpoint)") }
        ready(lastEndpoint(socket) ?? endpoint)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var start: UInt64 = 0
        for index in 0..<count {
            guard zmq_recv(socket, &buffer, buffer.count, 0) >= 0 else { throw Failure.last("recv") }
            if index == 0 { start = monotonicNanoseconds() }
        }
        return monotonicNanoseconds() - start
    }

    /// Connects a PUSH socket, sends `count` messages of `size` bytes, and closes once `done` returns.
    static func send(connect endpoint: String, count: Int, size: Int, curve: BenchKeys?, done: () -> Void) throws {
        let context = zmq_ctx_new()
        defer { zmq_ctx_term(context) }
        let socket = zmq_socket(context, ZMQ_PUSH)
        defer { zmq_close(socket) }
        var linger: Int32 = -1
        zmq_setsockopt(socket, ZMQ_LINGER, &linger, MemoryLayout<Int32>.size)
        try curve?.connect(raw: socket)
        guard zmq_connect(socket, endpoint) == 0 else { throw Failure.last("connect \(endpoint)") }
        let payload = [UInt8](repeating: 0x5A, count: size)
        for _ in 0..<count {
            guard zmq_send(socket, payload, size, 0) >= 0 else { throw Failure.last("send") }
        }
        done()
    }

    /// Binds a DEALER, waits for the echo peer, then times `count` request/reply round trips.
    static func ping(
        bind endpoint: String, count: Int, size: Int, curve: BenchKeys?, ready: @Sendable (String) -> Void
    ) throws -> Histogram<UInt64> {
        let context = zmq_ctx_new()
        defer { zmq_ctx_term(context) }
        let socket = zmq_socket(context, ZMQ_DEALER)
        defer { zmq_close(socket) }
        var linger: Int32 = 0
        zmq_setsockopt(socket, ZMQ_LINGER, &linger, MemoryLayout<Int32>.size)
        try curve?.serve(raw: socket)
        guard zmq_bind(socket, endpoint) == 0 else { throw Failure.last("bind \(endpoint)") }
        ready(lastEndpoint(socket) ?? endpoint)
        let payload = [UInt8](repeating: 0x5A, count: size)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var histogram = Histogram<UInt64>(highestTrackableValue: 10_000_000_000)
        for index in 0..<(count + count / 10) {
            let start = monotonicNanoseconds()
            guard zmq_send(socket, payload, size, 0) >= 0 else { throw Failure.last("send") }
            guard zmq_recv(socket, &buffer, buffer.count, 0) >= 0 else { throw Failure.last("recv") }
            // The first tenth warms up connections and caches and is not recorded.
            if index >= count / 10 { _ = histogram.record(monotonicNanoseconds() - start) }
        }
        return histogram
    }

    /// Connects a ROUTER and echoes `count` messages back to their sender.
    static func echo(connect endpoint: String, count: Int, curve: BenchKeys?) throws {
        let context = zmq_ctx_new()
        defer { zmq_ctx_term(context) }
        let socket = zmq_socket(context, ZMQ_ROUTER)
        defer { zmq_close(socket) }
        try curve?.connect(raw: socket)
        guard zmq_connect(socket, endpoint) == 0 else { throw Failure.last("connect \(endpoint)") }
        var identity = [UInt8](repeating: 0, count: 256)
        var body = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<count {
            let idSize = zmq_recv(socket, &identity, identity.count, 0)
            let bodySize = zmq_recv(socket, &body, body.count, 0)
            guard idSize >= 0, bodySize >= 0 else { throw Failure.last("recv") }
            zmq_send(socket, identity, Int(idSize), ZMQ_SNDMORE)
            zmq_send(socket, body, Int(bodySize), 0)
        }
    }

    static func lastEndpoint(_ socket: UnsafeMutableRawPointer?) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        var size = buffer.count
        guard zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, &buffer, &size) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
