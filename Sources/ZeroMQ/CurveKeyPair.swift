import CZeroMQ

/// A CURVE key pair in Z85 text (40 characters each), as libzmq's socket options take them.
public struct CurveKeyPair: Sendable, Equatable {
    public let publicKey: String
    public let secretKey: String

    public init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Whether this libzmq was built with CURVE (Debian's is, on libsodium).
    public static var isAvailable: Bool { zmq_has("curve") != 0 }

    /// A fresh key pair (`zmq_curve_keypair`).
    public static func generate() throws(ZMQError) -> CurveKeyPair {
        guard isAvailable else { throw ZMQError.unsupported("this libzmq was built without CURVE (zmq_has(\"curve\") is 0)") }
        var publicText = [CChar](repeating: 0, count: 41)
        var secretText = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&publicText, &secretText) == 0 else { throw ZMQError.last("generate a CURVE key pair") }
        return CurveKeyPair(publicKey: text(publicText), secretKey: text(secretText))
    }

    /// Whether `text` is a key in Z85 (40 characters that decode to 32 bytes).
    public static func isKey(_ text: String) -> Bool {
        text.utf8.count == 40 && z85Decoded(text) != nil
    }

    /// The 32 bytes a Z85 key stands for, or nil if it is not one.
    static func z85Decoded(_ text: String) -> [UInt8]? {
        guard text.utf8.count == 40 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard zmq_z85_decode(&bytes, text) != nil else { return nil }
        return bytes
    }

    /// A 32-byte key in Z85, as ZAP hands a client's key over in binary.
    static func z85Encoded(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 32 else { return nil }
        var text = [CChar](repeating: 0, count: 41)
        guard zmq_z85_encode(&text, bytes, bytes.count) != nil else { return nil }
        return Self.text(text)
    }

    /// A NUL-terminated C string's text.
    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A socket's part in CURVE: the server that holds its own secret key, or a client that proves
/// its key to a server whose public key it knows (and so knows it talks to the right server).
public enum CurveRole: Sendable, Equatable {
    case server(CurveKeyPair)
    case client(CurveKeyPair, serverKey: String)
}
