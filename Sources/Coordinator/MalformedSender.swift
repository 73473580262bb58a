import Randomness
import ZeroMQ

/// Sends garbage to dispatch's sessions socket, as a broken or hostile client would: frames that
/// are not envelopes, truncated envelopes, wrong frame counts, empty frames. Sharded, to every
/// shard's in turn (one DEALER connected to them all deals its frames round the shards).
struct MalformedSender {
    /// The name its key is made under in a CURVE run.
    static let keyName = "garbage"

    /// Every dispatch shard's sessions endpoint (one, unsharded).
    let endpoints: [String]
    let perSecond: Double
    var random: SeededGenerator

    /// Sends until cancelled; returns how many frames went out.
    mutating func run(on transport: Transport) async -> Int {
        guard perSecond > 0, let dealer = try? await transport.socket(.dealer) else { return 0 }
        defer { Task { await dealer.close() } }
        for endpoint in endpoints {
            guard (try? await dealer.connect(endpoint)) != nil else { return 0 }
        }
        var sent = 0
        while !Task.isCancelled {
            let length = Int(random.next() % 64)
            let garbage = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let frames: [[UInt8]] =
                switch sent % 4 {
                case 0: [garbage]
                case 1: [[0x0A, 0xFF, 0xFF, 0xFF]]  // a field that claims more bytes than follow
                case 2: [garbage, garbage]  // two frames where one is expected
                default: [[]]
                }
            guard (try? await dealer.send(Message(frames))) != nil else { break }
            sent += 1
            try? await Task.sleep(for: .seconds(1 / perSecond))
        }
        return sent
    }
}
