import Foundation

/// A hung test fails with this instead of hanging the suite.
public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "timed out: \(what)" }
}

/// Runs `body`, failing instead of hanging the suite if it takes longer than `seconds` (times
/// `RIBCITY_HANG_GUARD_SCALE` from the environment: a sanitizer run is several times slower).
/// A guard against hangs, not a performance assertion.
public func within<T: Sendable>(
    _ seconds: Double, _ what: String = #function,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let scale = ProcessInfo.processInfo.environment["RIBCITY_HANG_GUARD_SCALE"].flatMap(Double.init) ?? 1
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds * max(1, scale)))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimedOut(what: what) }
        return value
    }
}
