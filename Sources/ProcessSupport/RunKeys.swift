import Foundation
import Wire
import ZeroMQ

/// A run's CURVE keys: one pair per process, made by the coordinator at launch in the run's
/// `keys/` directory (owner-only), found by each process through `RIBCITY_KEYS`. A process reads
/// its own pair, the public keys of the servers it connects to, and — to admit them — everyone's
/// public key, each under the process name it was made for.
///
/// Layout: `NAME.public` holds the public key, `NAME.secret` the secret one (mode 0600), each 40
/// Z85 characters and a newline.
public enum RunKeys {
    /// The environment variable that names the key directory for a launched process.
    public static let environmentVariable = "RIBCITY_KEYS"

    /// Why keys could not be read, naming the file.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes a fresh pair for each of `names` in `directory` (created owner-only).
    @discardableResult
    public static func generate(for names: [String], in directory: String) throws -> [String: CurveKeyPair] {
        let files = FileManager.default
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var pairs: [String: CurveKeyPair] = [:]
        for name in names {
            let pair = try CurveKeyPair.generate()
            try write(pair.publicKey, to: path(directory, name, "public"), permissions: 0o600)
            try write(pair.secretKey, to: path(directory, name, "secret"), permissions: 0o600)
            pairs[name] = pair
        }
        return pairs
    }

    /// The pair made for `name`.
    public static func pair(of name: String, in directory: String) throws -> CurveKeyPair {
        CurveKeyPair(
            publicKey: try key(at: path(directory, name, "public")), secretKey: try key(at: path(directory, name, "secret")))
    }

    /// The public key made for `name`.
    public static func publicKey(of name: String, in directory: String) throws -> String {
        try key(at: path(directory, name, "public"))
    }

    /// Every public key in `directory`, mapped to the name it was made for (what a server admits).
    public static func admitted(in directory: String) throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".public") }
        var admitted: [String: String] = [:]
        for file in names.sorted() {
            let name = String(file.dropLast(".public".count))
            admitted[try key(at: path(directory, name, "public"))] = name
        }
        return admitted
    }

    /// Which process serves each endpoint a process connects to: each dispatch shard its
    /// sessions endpoint (given in shard order), the coordinator (whose proxy is the bus) every
    /// bus endpoint.
    public static func servers(sessions: [String], bus: [String?]) -> [String: String] {
        var servers: [String: String] = [:]
        for (shard, endpoint) in sessions.enumerated() {
            servers[endpoint] = WireIDs.dispatchProcess(shard: shard, of: sessions.count)
        }
        for case let endpoint? in bus { servers[endpoint] = "coordinator" }
        return servers
    }

    /// Secures `transport` as process `name` when the run has keys (`RIBCITY_KEYS` is set):
    /// its binds become CURVE servers admitting the run's keys, and its connects to each endpoint
    /// of `servers` (endpoint → the process serving it) CURVE clients of that process's key.
    /// Refused handshakes are reported on standard error with the peer's address.
    /// - Returns: the ZAP handler, or nil for a run without keys.
    @discardableResult
    public static func secure(
        _ transport: Transport, as name: String, servers: [String: String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> Authenticator? {
        guard let directory = environment[environmentVariable], !directory.isEmpty else { return nil }
        var security = TransportSecurity(keys: try pair(of: name, in: directory))
        for (endpoint, server) in servers { security.servers[endpoint] = try publicKey(of: server, in: directory) }
        return try await transport.secure(security, admitting: try admitted(in: directory)) { refusal in
            FileHandle.standardError.write(
                Data(
                    "\(name): refused a CURVE handshake from \(refusal.address.isEmpty ? "a local peer" : refusal.address): \(refusal.reason)\n"
                        .utf8))
        }
    }

    private static func path(_ directory: String, _ name: String, _ kind: String) -> String {
        (directory as NSString).appendingPathComponent("\(name).\(kind)")
    }

    private static func write(_ key: String, to path: String, permissions: Int) throws {
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data((key + "\n").utf8), attributes: [.posixPermissions: permissions])
        else { throw Failure(description: "\(path): could not be written") }
    }

    private static func key(at path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): no such key file (or not readable)")
        }
        let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard CurveKeyPair.isKey(key) else { throw Failure(description: "\(path): not a CURVE key (40 Z85 characters)") }
        return key
    }
}
