import CZeroMQ
import ZeroMQ

/// Whether a benchmark case runs in the clear or over CURVE (encrypted and authenticated).
public enum BenchSecurity: String, Sendable, CaseIterable {
    case plain, curve
}

/// The throwaway keys of one CURVE case: the binding end is the server, the connecting end
/// (the peer process) its client. The peer gets them on its command line.
struct BenchKeys: Sendable {
    let server: CurveKeyPair
    let client: CurveKeyPair

    static func generate() throws -> BenchKeys {
        BenchKeys(server: try CurveKeyPair.generate(), client: try CurveKeyPair.generate())
    }

    /// The peer's arguments: the server's public key and its own pair (joined with `=`: a Z85
    /// key may begin with `-`).
    var peerArguments: [String] {
        ["--server-key=\(server.publicKey)", "--client-public=\(client.publicKey)", "--client-secret=\(client.secretKey)"]
    }

    /// The client's view, rebuilt from `peerArguments` in the peer (it has no server secret).
    static func client(serverKey: String, publicKey: String, secretKey: String) -> BenchKeys {
        BenchKeys(
            server: CurveKeyPair(publicKey: serverKey, secretKey: ""),
            client: CurveKeyPair(publicKey: publicKey, secretKey: secretKey))
    }

    /// Makes a raw socket a CURVE server with these keys. libzmq then admits any client key
    /// (no ZAP handler): the bare cost of the encryption.
    func serve(raw socket: UnsafeMutableRawPointer?) throws {
        var on: Int32 = 1
        guard zmq_setsockopt(socket, ZMQ_CURVE_SERVER, &on, MemoryLayout<Int32>.size) == 0,
            set(socket, ZMQ_CURVE_SECRETKEY, server.secretKey)
        else { throw RawLoops.Failure.last("CURVE server options") }
    }

    /// Makes a raw socket a CURVE client of this server.
    func connect(raw socket: UnsafeMutableRawPointer?) throws {
        guard set(socket, ZMQ_CURVE_SERVERKEY, server.publicKey), set(socket, ZMQ_CURVE_PUBLICKEY, client.publicKey),
            set(socket, ZMQ_CURVE_SECRETKEY, client.secretKey)
        else { throw RawLoops.Failure.last("CURVE client options") }
    }

    /// Makes a ribcity transport's socket options a CURVE server, its ZAP handler admitting the
    /// client's key (a cost paid once per connection, at the handshake).
    func serve(_ transport: Transport, options: inout SocketOptions) async throws {
        _ = try await transport.authenticate(admitting: [client.publicKey: "bench-peer"])
        options.curve = .server(server)
    }

    /// Makes a ribcity transport's socket options a CURVE client of this server.
    func connect(options: inout SocketOptions) {
        options.curve = .client(client, serverKey: server.publicKey)
    }

    private func set(_ socket: UnsafeMutableRawPointer?, _ option: Int32, _ key: String) -> Bool {
        Array(key.utf8).withUnsafeBytes { zmq_setsockopt(socket, option, $0.baseAddress, $0.count) } == 0
    }
}
