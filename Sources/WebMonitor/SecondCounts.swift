/// Durations in whole seconds counted by value, so a percentile costs the range of values and
/// not the number of samples (a day's hundreds of thousands of pickup waits, asked for every
/// frame). Percentiles are nearest-rank, the same as `Distribution`'s.
struct SecondCounts: Sendable, Equatable {
    private var counts: [Int] = []
    private(set) var total = 0

    mutating func add(_ seconds: UInt32) {
        let value = Int(seconds)
        if value >= counts.count { counts += Array(repeating: 0, count: value - counts.count + 1) }
        counts[value] += 1
        total += 1
    }

    /// The value below which `fraction` of the samples lie (nearest rank); 0 when empty.
    func percentile(_ fraction: Double) -> Double {
        guard total > 0 else { return 0 }
        let rank = min(total - 1, max(0, Int((fraction * Double(total)).rounded(.up)) - 1))
        var seen = 0
        for (value, count) in counts.enumerated() {
            seen += count
            if seen > rank { return Double(value) }
        }
        return Double(counts.count - 1)
    }
}
