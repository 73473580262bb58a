import CZeroMQ

/// Something that happened to a socket: a libzmq monitor event, or a send the transport could not make.
public struct SocketEvent: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case connected, connectDelayed, connectRetried, listening, bindFailed
        case accepted, acceptFailed, closed, closeFailed, disconnected, monitorStopped
        case handshakeSucceeded, handshakeFailed
        /// A message sent without confirmation could not be handed to libzmq (e.g. unknown ROUTER peer).
        case sendFailed
        /// libzmq reported an error while the I/O thread was reading the socket.
        case receiveFailed
        case other(UInt16)

        init(monitorCode code: UInt16) {
            switch Int32(code) {
            case ZMQ_EVENT_CONNECTED: self = .connected
            case ZMQ_EVENT_CONNECT_DELAYED: self = .connectDelayed
            case ZMQ_EVENT_CONNECT_RETRIED: self = .connectRetried
            case ZMQ_EVENT_LISTENING: self = .listening
            case ZMQ_EVENT_BIND_FAILED: self = .bindFailed
            case ZMQ_EVENT_ACCEPTED: self = .accepted
            case ZMQ_EVENT_ACCEPT_FAILED: self = .acceptFailed
            case ZMQ_EVENT_CLOSED: self = .closed
            case ZMQ_EVENT_CLOSE_FAILED: self = .closeFailed
            case ZMQ_EVENT_DISCONNECTED: self = .disconnected
            case ZMQ_EVENT_MONITOR_STOPPED: self = .monitorStopped
            case ZMQ_EVENT_HANDSHAKE_SUCCEEDED: self = .handshakeSucceeded
            case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL, ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL,
                ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
                self = .handshakeFailed
            default: self = .other(code)
            }
        }
    }

    public let kind: Kind
    /// The endpoint concerned (for monitor events), or empty.
    public let endpoint: String
    /// libzmq's event value (an fd, errno or interval), or the failure for `sendFailed`.
    public let detail: String

    public init(kind: Kind, endpoint: String, detail: String = "") {
        self.kind = kind
        self.endpoint = endpoint
        self.detail = detail
    }

    /// Decodes the two frames libzmq's socket monitor sends for one event.
    init?(monitorMessage message: Message) {
        guard message.frames.count >= 2, message.frames[0].count >= 6 else { return nil }
        let head = message.frames[0]
        let code = UInt16(head[0]) | UInt16(head[1]) << 8
        let value = head[2...5].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        self.init(
            kind: Kind(monitorCode: code),
            endpoint: String(decoding: message.frames[1], as: UTF8.self),
            detail: String(value)
        )
    }

    public var description: String {
        endpoint.isEmpty ? "\(kind) \(detail)" : "\(kind) \(endpoint) \(detail)"
    }
}
