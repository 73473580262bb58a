import RIBs
import Wire

/// What an app sends to dispatch: a request, whose reply (or failure) comes back to the app, or a
/// message that needs no reply.
public enum AppMessage: Sendable, Equatable {
    case request(Envelope.OneOf_Body)
    case message(Envelope.OneOf_Body)

    /// The body sent, either way.
    public var body: Envelope.OneOf_Body {
        switch self {
        case .request(let body), .message(let body): body
        }
    }
}

/// An app's line to dispatch and to time. Services put what they send in its outbox; the app's
/// host drains it after every input and sends it over the host's session. Replies come back
/// through the app (a request that goes unanswered comes back as an `ErrorReply`). The simulated
/// clock is a stream the app's interactors and workers follow.
///
/// Not `Sendable`: it belongs to one app's RIB tree, on that app's actor.
public final class AppLink {
    /// Simulated time in seconds; moves only forward.
    public let clock: ModelStream<Double>
    private var outbox: [AppMessage] = []

    /// A link whose clock starts at `time`.
    public init(time: Double) {
        clock = ModelStream(time)
    }

    /// Simulated seconds now.
    public var now: Double { clock.value }

    /// Sends a request; its reply comes back to the app.
    public func request(_ body: Envelope.OneOf_Body) {
        outbox.append(.request(body))
    }

    /// Sends a message that needs no reply.
    public func send(_ body: Envelope.OneOf_Body) {
        outbox.append(.message(body))
    }

    /// Moves the clock to `time` if that is later.
    public func advance(to time: Double) {
        if time > clock.value { clock.send(time) }
    }

    /// What was sent since the last drain, in order.
    public func drain() -> [AppMessage] {
        defer { outbox = [] }
        return outbox
    }
}
