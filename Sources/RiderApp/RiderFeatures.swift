import Randomness

/// Which optional features one rider's app has on, and which of them are made to fail: drawn
/// for each rider from the run's seed, so every process (and every run) agrees.
public struct RiderFeatures: Sendable, Equatable {
    public var flags: [String: Bool]
    public var faults: PluginFaults

    public init(flags: [String: Bool] = [:], faults: PluginFaults = PluginFaults()) {
        self.flags = flags
        self.faults = faults
    }

    /// The features of rider `number` under `seed`, for settings given as (share on, failure
    /// rate) by feature name: each feature drawn on its own, so adding one changes no other.
    public static func draw(
        _ settings: [String: (share: Double, failRate: Double)], rider number: Int, seed: UInt64
    ) -> RiderFeatures {
        var features = RiderFeatures()
        for (name, setting) in settings.sorted(by: { $0.key < $1.key }) {
            var random = SeededGenerator(seed: seed &+ UInt64(number), for: name)
            let on = setting.share >= 1 || Double.random(in: 0..<1, using: &random) < setting.share
            features.flags[name] = on
            guard on, setting.failRate > 0, Double.random(in: 0..<1, using: &random) < setting.failRate else { continue }
            features.faults.failing[name] = Bool.random(using: &random) ? .atBuild : .atWork
        }
        return features
    }
}
