import CZeroMQ

/// The ZeroMQ socket patterns ribcity uses.
public enum SocketType: Sendable, CaseIterable, CustomStringConvertible {
    case pair, pub, sub, xpub, xsub, router, dealer, push, pull, req, rep

    var rawValue: Int32 {
        switch self {
        case .pair: ZMQ_PAIR
        case .pub: ZMQ_PUB
        case .sub: ZMQ_SUB
        case .xpub: ZMQ_XPUB
        case .xsub: ZMQ_XSUB
        case .router: ZMQ_ROUTER
        case .dealer: ZMQ_DEALER
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        case .req: ZMQ_REQ
        case .rep: ZMQ_REP
        }
    }

    /// Whether a socket of this type can receive at all (PUB and PUSH cannot).
    public var canReceive: Bool { self != .pub && self != .push }

    /// Whether a socket of this type can send at all (SUB and PULL cannot).
    public var canSend: Bool { self != .sub && self != .pull }

    public var description: String {
        switch self {
        case .pair: "PAIR"
        case .pub: "PUB"
        case .sub: "SUB"
        case .xpub: "XPUB"
        case .xsub: "XSUB"
        case .router: "ROUTER"
        case .dealer: "DEALER"
        case .push: "PUSH"
        case .pull: "PULL"
        case .req: "REQ"
        case .rep: "REP"
        }
    }
}
