import Foundation

/// Where a wall-clock run's simulated time starts: the wall-clock instant at which it was 0, in
/// Unix milliseconds, as dispatch journals it and the coordinator hands it to dispatch's shards.
public enum WallOrigin {
    /// The wall clock now, in Unix milliseconds.
    public static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
