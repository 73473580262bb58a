import CZeroMQ
import Glibc

/// An error from libzmq or from the transport layer above it.
public struct ZMQError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` value libzmq reported, or one of the transport's own codes (negative).
    public let code: Int32
    /// What was being done when it failed, e.g. `bind tcp://127.0.0.1:5555`.
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// The error libzmq just reported on this thread.
    static func last(_ operation: @autoclosure () -> String) -> ZMQError {
        ZMQError(code: zmq_errno(), operation: operation())
    }

    /// The socket or transport was closed before the operation could complete.
    public static func closed(_ operation: String) -> ZMQError {
        ZMQError(code: closedCode, operation: operation)
    }

    static let closedCode: Int32 = -1

    /// This libzmq cannot do what was asked (`operation` says what and why).
    static func unsupported(_ operation: String) -> ZMQError {
        ZMQError(code: ENOTSUP, operation: operation)
    }

    /// The socket was closed, or the transport shut down.
    public var isClosed: Bool { code == ZMQError.closedCode || code == ETERM || code == ENOTSOCK }
    /// A ROUTER_MANDATORY socket was asked to send to a peer it does not know.
    public var isHostUnreachable: Bool { code == EHOSTUNREACH }
    /// The operation would have blocked.
    public var isWouldBlock: Bool { code == EAGAIN }

    public var description: String {
        let reason: String
        if code == ZMQError.closedCode {
            reason = "socket closed"
        } else if let text = zmq_strerror(code) {
            reason = String(cString: text)
        } else {
            reason = "error \(code)"
        }
        return "\(operation): \(reason)"
    }
}
