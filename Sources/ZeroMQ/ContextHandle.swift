import CZeroMQ

/// A libzmq context pointer that may be shared between threads.
///
/// `@unchecked Sendable` is safe here: libzmq documents its contexts as thread-safe (unlike
/// its sockets), and the pointer itself never changes after creation. The I/O thread is the
/// only one that terminates it, after every socket on it was closed.
final class ContextHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer

    init() throws(ZMQError) {
        guard let pointer = zmq_ctx_new() else { throw ZMQError.last("zmq_ctx_new") }
        self.pointer = pointer
    }
}
