/// CURVE for every socket of a transport: each socket that binds a tcp or ipc endpoint is a
/// CURVE server with the process's own keys, and each that connects to an endpoint in
/// ``servers`` is a CURVE client that knows that server's public key (so it cannot be talked to
/// by an impostor). Endpoints not listed, and inproc, are left as they are.
public struct TransportSecurity: Sendable {
    /// This process's key pair.
    public let keys: CurveKeyPair
    /// The public key of the server at each endpoint this process connects to.
    public var servers: [String: String]

    public init(keys: CurveKeyPair, servers: [String: String] = [:]) {
        self.keys = keys
        self.servers = servers
    }

    /// What a socket binding `endpoint` is: a CURVE server, or nil for inproc.
    func binding(_ endpoint: String) -> CurveRole? {
        endpoint.hasPrefix("inproc://") ? nil : .server(keys)
    }

    /// What a socket connecting to `endpoint` is: a client of its server, or nil if unlisted.
    func connecting(_ endpoint: String) -> CurveRole? {
        servers[endpoint].map { .client(keys, serverKey: $0) }
    }
}

extension Transport {
    /// Makes every later bind and connect of this transport's sockets use CURVE as `security`
    /// says, and starts the ZAP handler admitting `keys` (public key → the name it was issued to).
    /// Call once, before creating the sockets it should cover.
    @discardableResult
    public func secure(
        _ security: TransportSecurity, admitting keys: [String: String],
        onRefusal: @escaping @Sendable (Authenticator.Refusal) -> Void = { _ in }
    ) async throws -> Authenticator {
        guard CurveKeyPair.isAvailable else {
            throw ZMQError.unsupported("CURVE: this libzmq was built without it (zmq_has(\"curve\") is 0)")
        }
        let authenticator = try await authenticate(admitting: keys, onRefusal: onRefusal)
        core.security.withLock { $0 = security }
        return authenticator
    }
}
