import Foundation

/// The secret a session sends in every Hello it says (see `Hello.session_token`): drawn once per
/// session from the system's cryptographic random source (`getrandom` on Linux).
public enum SessionToken {
    /// Bytes in a token: 128 bits, beyond guessing.
    public static let byteCount = 16

    /// A fresh token.
    public static func draw() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
