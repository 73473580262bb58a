/// How a topology turns one optional feature on: for what share of the apps, and what share of
/// those have the feature fail (to show the kill switch keeping the core flow going).
///
/// In YAML, `true`/`false` or `{ share: 0.3, fail_rate: 0.05 }`.
public struct FeatureSetting: Sendable, Equatable, CustomStringConvertible {
    /// The share of apps (0–1) that have the feature on, drawn per app from the run's seed.
    public var share: Double
    /// Of the apps that have it on, the share (0–1) in which it fails.
    public var failRate: Double

    public init(share: Double, failRate: Double = 0) {
        self.share = share
        self.failRate = failRate
    }

    /// On in every app, never failing.
    public static let on = FeatureSetting(share: 1)
    /// Off everywhere.
    public static let off = FeatureSetting(share: 0)

    /// As the topology file writes it.
    public var description: String {
        if failRate == 0, share == 1 { return "true" }
        if failRate == 0, share == 0 { return "false" }
        return "{ share: \(share), fail_rate: \(failRate) }"
    }
}
