import Faults
import TestSupport
import Testing

@Suite("Message faults: the stress layer's specification and draws")
struct MessageFaultsTests {
    @Test("A specification is read whole; a bad one names what is wrong")
    func parsing() throws {
        let faults = try MessageFaults(parsing: "drop=0.01,delay=0.1:250ms,duplicate=0.05", seed: 3)
        #expect(faults.drop == 0.01 && faults.duplicate == 0.05 && faults.delay == 0.1 && faults.maxDelay == .milliseconds(250))
        #expect(throws: FaultSpecError.self) { try MessageFaults(parsing: "lose=0.1", seed: 1) }
        do {
            _ = try MessageFaults(parsing: "drop=2", seed: 1)
            Issue.record("a probability of 2 was accepted")
        } catch {
            #expect(error.description == "message faults 'drop=2': drop's '2' is not a probability between 0 and 1")
        }
        #expect(throws: FaultSpecError.self) { try MessageFaults(parsing: "delay=0.1:fast", seed: 1) }
    }

    @Test("Draws follow the probabilities and the seed")
    func draws() {
        let faults = MessageFaults(drop: 0.1, duplicate: 0.2, delay: 0.3, maxDelay: .milliseconds(100), seed: 9)
        func tally(seed: UInt64) -> [String: Int] {
            var random = SplitMix(seed: seed)
            var counts: [String: Int] = [:]
            for _ in 0..<10_000 {
                switch faults.fate(using: &random) {
                case .send: counts["send", default: 0] += 1
                case .drop: counts["drop", default: 0] += 1
                case .duplicate: counts["duplicate", default: 0] += 1
                case .delay(let wait):
                    #expect(wait > .zero && wait <= .milliseconds(100))
                    counts["delay", default: 0] += 1
                }
            }
            return counts
        }
        let counts = tally(seed: 9)
        #expect(counts == tally(seed: 9), "same seed, same faults")
        #expect(
            (800...1_200).contains(counts["drop"] ?? 0) && (1_700...2_300).contains(counts["duplicate"] ?? 0)
                && (2_700...3_300).contains(counts["delay"] ?? 0), "\(counts)")
    }
}
