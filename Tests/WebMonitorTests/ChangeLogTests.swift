import Randomness
import RideDispatch
import Testing

@testable import WebMonitor

@Suite("What changed since a version, and percentiles by whole second")
struct ChangeLogTests {
    @Test("A change log names each key whose latest change is after the version, once, oldest change first")
    func changedSince() {
        var log = ChangeLog<String>()
        log.record("a", at: 1)
        log.record("b", at: 2)
        log.record("a", at: 3)
        log.record("c", at: 3)
        #expect(log.changed(since: 0) == ["b", "a", "c"])
        #expect(log.changed(since: 1) == ["b", "a", "c"])
        #expect(log.changed(since: 2) == ["a", "c"])
        #expect(log.changed(since: 3).isEmpty)
    }

    @Test("Compacting a long log keeps every answer the same as a full scan gives")
    func compaction() {
        var log = ChangeLog<Int>()
        var latest: [Int: UInt64] = [:]
        var random = SeededGenerator(seed: 12_345)
        for version in UInt64(1)...20_000 {
            let key = Int.random(in: 0..<50, using: &random)
            log.record(key, at: version)
            latest[key] = version
        }
        for since in [UInt64(0), 5_000, 19_000, 19_990, 19_999, 20_000] {
            let expected = latest.filter { $0.value > since }.sorted { $0.value < $1.value }.map(\.key)
            #expect(log.changed(since: since) == expected, "since \(since)")
        }
    }

    @Test("Percentiles counted by second equal the nearest-rank percentiles of every sample")
    func percentiles() {
        var counts = SecondCounts()
        var samples = Distribution()
        #expect(counts.percentile(0.5) == 0)
        for value in [UInt32(30), 5, 900, 61, 61, 0, 240, 30, 17, 5_000, 61] {
            counts.add(value)
            samples.add(Double(value))
            for fraction in [0.0, 0.25, 0.5, 0.95, 1.0] {
                #expect(counts.percentile(fraction) == samples.percentile(fraction), "\(fraction) after \(value)")
            }
        }
    }
}
