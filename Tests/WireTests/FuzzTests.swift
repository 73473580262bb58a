import TestSupport
import Testing

@testable import Wire

@Suite("Decoders never crash")
struct FuzzTests {
    /// Runs every decoder on the frames; any outcome but a trap is acceptable, and a failure
    /// must be a typed WireError.
    static func decodeEverything(_ frames: [[UInt8]]) -> Int {
        var failures = 0
        for frame in frames {
            do { _ = try WireCodec.decode(frame) } catch { failures += 1 }
        }
        do { _ = try Frames.Routed(frames: frames) } catch { failures += 1 }
        do { _ = try Frames.Published(frames: frames) } catch { failures += 1 }
        do { _ = try Frames.direct(frames) } catch { failures += 1 }
        return failures
    }

    @Test("Random bytes", arguments: [1, 2, 3, 4])
    func randomBytes(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var failures = 0
        for _ in 0..<2_500 {
            let frameCount = Int.random(in: 0...3, using: &random)
            let frames = (0..<frameCount).map { _ in
                (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            failures += Self.decodeEverything(frames)
        }
        #expect(failures > 0)
    }

    @Test("Truncated and bit-flipped real messages")
    func mutatedMessages() throws {
        var random = SplitMix(seed: 99)
        var stamper = SequenceStamper(sender: "fuzz")
        var decodedCleanly = 0
        var refused = 0
        for body in CodecTests.sampleBodies() {
            let bytes = WireCodec.encode(Envelope(body, from: stamper.next()))
            for cut in 0..<bytes.count {
                let truncated = Array(bytes.prefix(cut))
                if (try? WireCodec.decode(truncated)) == nil { refused += 1 } else { decodedCleanly += 1 }
            }
            for _ in 0..<1_000 {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<mutated.count, using: &random)
                    mutated[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
                }
                do {
                    _ = try WireCodec.decode(mutated)
                    decodedCleanly += 1
                } catch {
                    #expect(!error.description.isEmpty)
                    refused += 1
                }
                _ = Self.decodeEverything([[1, 2], mutated])
            }
        }
        #expect(refused > 0)
        #expect(decodedCleanly + refused > 7_000)
    }
}
