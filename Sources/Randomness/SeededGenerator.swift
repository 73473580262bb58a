/// A small, fast, seeded random number generator (SplitMix64): the same seed gives the same
/// sequence on every run and machine, which is what makes simulations and tests reproducible.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// A generator for one named draw (a feature, an invitation) under `seed`: the name is mixed
    /// in by FNV-1a, which is the same in every process and run (Swift's `Hasher` is not).
    public init(seed: UInt64, for name: String) {
        self.init(seed: seed ^ name.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 })
    }
}
