/// A hung test fails with this instead of hanging the suite.
public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "timed out: \(what)" }
}

/// Runs `body`, failing instead of hanging the suite if it takes longer than `seconds`.
/// A guard against hangs, not a performance assertion.
public func within<T: Sendable>(_ seconds: Double, _ what: String = #function,
                                _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimedOut(what: what) }
        return value
    }
}
