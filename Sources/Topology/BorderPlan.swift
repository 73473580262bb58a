/// `dispatch: { border: { … } }`: how sharded dispatch matches across its borders
/// (docs/ARCHITECTURE.md, "Sharded dispatch"; docs/TOPOLOGIES.md).
public struct BorderPlan: Sendable, Equatable {
    /// A neighbour's driver is taken only if it reaches the pickup this many seconds sooner than
    /// the best at home (`margin_s`).
    public var marginSeconds: Double = 60
    /// A pickup this many surge zones or fewer from another region asks that region (`reach_zones`; 0: never).
    public var reachZones = 1
    /// How long an ask waits for its answer before the request is matched at home (`patience_s`).
    public var patienceSeconds: Double = 10

    public init() {}
}
