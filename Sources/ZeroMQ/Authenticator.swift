/// The ZAP handler of a transport (ZeroMQ's RFC 27): libzmq asks it, for every CURVE handshake on
/// this transport's server sockets, whether the client's key may come in. Only the keys it was
/// given are admitted, each under the name it was issued to (the messages of that connection carry
/// the name as ``Message/userID``); an unknown key is refused, counted and reported with the
/// peer's address, and the connections already in never notice.
///
/// Start it before binding a CURVE server socket: libzmq admits every key on a transport with no
/// ZAP handler, so ``Transport/socket(_:options:)`` refuses to make a CURVE server without one.
public final class Authenticator: Sendable {
    /// The ZAP domain ribcity's CURVE servers ask about.
    public static let domain = "ribcity"
    /// Where libzmq looks for a context's ZAP handler.
    static let endpoint = "inproc://zeromq.zap.01"

    /// One handshake refused.
    public struct Refusal: Sendable, Equatable {
        /// The peer's address as libzmq gives it (an IP address over tcp; empty over ipc).
        public let address: String
        public let reason: String
    }

    private let socket: Socket
    private let served: Task<Void, Never>
    private let tally: Locked<(admitted: Int, refused: Int)>

    init(socket: Socket, keys: [String: String], onRefusal: @escaping @Sendable (Refusal) -> Void) {
        self.socket = socket
        let tally = Locked((admitted: 0, refused: 0))
        self.tally = tally
        // Keys arrive from libzmq in binary; compare them that way.
        var names: [[UInt8]: String] = [:]
        for (key, name) in keys { if let binary = CurveKeyPair.z85Decoded(key) { names[binary] = name } }
        served = Task { [names] in
            do {
                for try await batch in socket.batches() {
                    var replies: [Message] = []
                    for request in batch {
                        let (reply, refusal) = Self.answer(request.frames, names: names)
                        tally.withLock { counts in
                            if refusal == nil { counts.admitted += 1 } else { counts.refused += 1 }
                        }
                        if let refusal { onRefusal(refusal) }
                        if let reply { replies.append(reply) }
                    }
                    try await socket.send(contentsOf: replies)
                }
            } catch {}
        }
    }

    /// Handshakes admitted and refused so far.
    public var counts: (admitted: Int, refused: Int) { tally.withLock { $0 } }

    /// Stops answering (CURVE servers of this transport then admit nobody new).
    public func stop() async {
        served.cancel()
        await socket.close()
    }

    /// The reply to one ZAP request as a ROUTER receives it (`[peer, "", version, request id,
    /// domain, address, identity, mechanism, credentials…]`), and the refusal it is, if one.
    static func answer(_ frames: [[UInt8]], names: [[UInt8]: String]) -> (Message?, Refusal?) {
        guard frames.count >= 8, frames[1].isEmpty else { return (nil, Refusal(address: "", reason: "a malformed ZAP request")) }
        let text = { (index: Int) in String(decoding: frames[index], as: UTF8.self) }
        let address = text(5)
        func reply(_ status: String, _ statusText: String, user: String = "") -> Message {
            Message([
                frames[0], [], Array("1.0".utf8), frames[3], Array(status.utf8), Array(statusText.utf8), Array(user.utf8), [],
            ])
        }
        guard text(2) == "1.0" else {
            let refusal = Refusal(address: address, reason: "ZAP version \(text(2))")
            return (reply("500", refusal.reason), refusal)
        }
        guard text(4) == domain, text(7) == "CURVE", frames.count == 9 else {
            let refusal = Refusal(
                address: address, reason: "mechanism \(text(7)) in domain \"\(text(4))\"; only CURVE in \(domain) is served")
            return (reply("400", refusal.reason), refusal)
        }
        guard let name = names[frames[8]] else {
            let key = CurveKeyPair.z85Encoded(frames[8]) ?? "?"
            let refusal = Refusal(address: address, reason: "unknown key \(key)")
            return (reply("400", "unknown key"), refusal)
        }
        return (reply("200", "OK", user: name), nil)
    }
}

extension Transport {
    /// Starts this transport's ZAP handler, admitting `keys` (public key in Z85 → the name it was
    /// issued to). `onRefusal` hears of every handshake refused. One per transport.
    public func authenticate(
        admitting keys: [String: String], onRefusal: @escaping @Sendable (Authenticator.Refusal) -> Void = { _ in }
    ) async throws -> Authenticator {
        let socket = try await self.socket(.router)
        _ = try await socket.bind(Authenticator.endpoint)
        core.authenticating.withLock { $0 = true }
        return Authenticator(socket: socket, keys: keys, onRefusal: onRefusal)
    }
}
