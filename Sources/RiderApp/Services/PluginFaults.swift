/// Plugins made to fail on purpose (a topology's `fail_rate`), to show that the kill switch
/// keeps the core flow going: a plugin fails when it is built, or once it is at work.
public struct PluginFaults: Sendable, Equatable {
    /// Where a plugin set to fail fails.
    public enum Point: Sendable, Equatable {
        /// Building it throws: it is never attached.
        case atBuild
        /// It reports itself broken when it starts work, and is detached.
        case atWork
    }

    /// The failing plugins by feature name.
    public var failing: [String: Point]

    public init(_ failing: [String: Point] = [:]) {
        self.failing = failing
    }

    /// The failure injected into a plugin (what its error or report says).
    struct Injected: Error, CustomStringConvertible {
        let feature: String
        var description: String { "\(feature) failed (injected by the topology's fail_rate)" }
    }

    /// Throws if `feature` is set to fail when built.
    func checkBuild(of feature: String) throws {
        if failing[feature] == .atBuild { throw Injected(feature: feature) }
    }

    /// Why `feature` fails at work, if it is set to.
    func failureAtWork(of feature: String) -> String? {
        failing[feature] == .atWork ? Injected(feature: feature).description : nil
    }
}
