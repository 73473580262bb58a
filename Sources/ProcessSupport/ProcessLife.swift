import Foundation

/// Which start of a process this is — 1 for its first, one more for each restart — as the
/// coordinator tells it in `RIBCITY_LIFE`: set for each start it makes on its own host, and by a
/// process that joined from another host to the life the coordinator's answer gave it.
public enum ProcessLife {
    public static let environmentVariable = "RIBCITY_LIFE"

    /// This process's life (1 when nobody said).
    public static func current(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> UInt32 {
        environment[environmentVariable].flatMap { UInt32($0) } ?? 1
    }
}
